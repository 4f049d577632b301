"""Layers with hand-written backward passes, each next to its forward.

Every layer holds its parameters in `self.params` (name -> array) and has
    forward(x)          -> out, cache
    backward(dout, cache) -> dx, grads      (grads: name -> array, like params)
Shapes: B batch, T positions, D model width, h heads, d_k = D // h, F MLP width.
The dtype of the parameters decides the arithmetic: float32 to train, float64 to check gradients.
"""

import math

import numpy as np

from course.attention import softmax  # one softmax for the course


class Layer:
    """Parameters by name, and the names of sub-layers whose parameters belong to this one."""

    def __init__(self):
        self.params = {}
        self.children = {}

    def parameters(self, prefix=""):
        """Every parameter of this layer and its children, by dotted name."""
        found = {prefix + name: value for name, value in self.params.items()}
        for child_name, child in self.children.items():
            found.update(child.parameters(prefix + child_name + "."))
        return found

    def count(self):
        """How many numbers the layer learns."""
        return int(sum(value.size for value in self.parameters().values()))

    def flatten(self):
        """Move every parameter into one new flat array, in parameters() order, and return it: (count,).

        Each parameter becomes a view of its stretch of that array, so an optimizer can update
        them all with one operation (in WebAssembly every NumPy call costs, however small).
        """
        found = self.parameters()
        flat = np.concatenate([value.ravel() for value in found.values()])
        self._rehome(flat, 0)
        return flat

    def child_backward(self, name, dout, cache, grads):
        """Backward through the child `name`: its gradients go into `grads` under 'name.'; the gradient of its input."""
        dx, inner = self.children[name].backward(dout, cache)
        grads.update((name + "." + k, v) for k, v in inner.items())
        return dx

    def _rehome(self, flat, start):
        """Replace this layer's and its children's parameters with views into `flat` from `start`; returns the end."""
        for name, value in self.params.items():
            self.params[name] = flat[start:start + value.size].reshape(value.shape)
            start += value.size
        for child in self.children.values():
            start = child._rehome(flat, start)
        return start


def _init(rng, shape, fan_in, dtype):
    return (rng.normal(size=shape) / math.sqrt(fan_in)).astype(dtype)


def softmax_backward(dprobs, probs, axis=-1):
    """Gradient of the scores from the gradient of softmax(scores) = probs."""
    return probs * (dprobs - (dprobs * probs).sum(axis=axis, keepdims=True))


class Embedding(Layer):
    """A table of vectors, one row per token id: (B, T) ids -> (B, T, D)."""

    def __init__(self, vocab, width, rng, dtype=np.float32):
        super().__init__()
        self.params["E"] = rng.normal(size=(vocab, width)).astype(dtype)  # (V, D)

    def forward(self, ids):
        return self.params["E"][ids], ids  # (B, T, D)

    def backward(self, dout, ids):
        dE = np.zeros_like(self.params["E"])
        np.add.at(dE, ids.reshape(-1), dout.reshape(-1, dout.shape[-1]))  # rows of repeated ids add up
        return None, {"E": dE}


class Linear(Layer):
    """x @ W (+ b): (..., D_in) -> (..., D_out)."""

    def __init__(self, d_in, d_out, rng, bias=True, dtype=np.float32):
        super().__init__()
        self.params["W"] = _init(rng, (d_in, d_out), d_in, dtype)  # (D_in, D_out)
        if bias:
            self.params["b"] = np.zeros(d_out, dtype=dtype)  # (D_out,)

    def forward(self, x):
        out = x @ self.params["W"]
        if "b" in self.params:
            out = out + self.params["b"]
        return out, x

    def backward(self, dout, x):
        flat_x = x.reshape(-1, x.shape[-1])  # (N, D_in)
        flat_d = dout.reshape(-1, dout.shape[-1])  # (N, D_out)
        grads = {"W": flat_x.T @ flat_d}
        if "b" in self.params:
            grads["b"] = flat_d.sum(axis=0)
        return dout @ self.params["W"].T, grads


def attention(Q, K, V, mask=None):
    """Scaled dot-product attention over the last two axes; mask is (T, T) bool, True = hidden.

    Returns (out (..., T, d_v), A (..., T, T), cache). The mask goes on the scores,
    as -inf, before the softmax; a row with every position hidden is an error.
    """
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -1, -2) / Q.dtype.type(math.sqrt(d_k))  # (..., T, T)
    if mask is not None:
        blocked = np.asarray(mask, dtype=bool)
        full = np.flatnonzero(blocked.all(axis=-1))
        if full.size:
            raise ValueError("the mask hides every position from row {}: that row's softmax would be 0/0 (NaN); "
                             "leave at least one position visible (a causal mask hides only what lies above the "
                             "diagonal: np.triu(np.ones((T, T), dtype=bool), k=1))".format(full[0]))
        scores = np.where(blocked, -np.inf, scores)
    A = softmax(scores)  # (..., T, T)
    return A @ V, A, (Q, K, V, A)


def attention_backward(dout, cache):
    """Gradients of Q, K, V from the gradient of attention's output."""
    Q, K, V, A = cache
    dV = np.swapaxes(A, -1, -2) @ dout  # (..., T, d_v)
    dA = dout @ np.swapaxes(V, -1, -2)  # (..., T, T)
    dscores = softmax_backward(dA, A) / Q.dtype.type(math.sqrt(Q.shape[-1]))  # masked entries have A = 0
    return dscores @ K, np.swapaxes(dscores, -1, -2) @ Q, dV


class MultiHeadAttention(Layer):
    """Full-width projections split into h heads by blocks of columns, as a lesson builds them by hand.

    (B, T, D) -> (B, T, D). The last forward's maps stay in `self.maps` (B, h, T, T) for drawing.
    `ablate` names heads (0-based) whose output is set to zero before the output projection,
    in the forward pass and in its gradient alike: the layer runs as if those heads were removed.
    """

    def __init__(self, width, heads, rng, dtype=np.float32):
        super().__init__()
        if width % heads:
            raise ValueError("the width {} does not split into {} heads".format(width, heads))
        self.heads = heads
        for name in ("q", "k", "v", "o"):
            self.children[name] = Linear(width, width, rng, dtype=dtype)
        self.maps = None

    def _split(self, x):
        B, T, D = x.shape
        return x.reshape(B, T, self.heads, D // self.heads).transpose(0, 2, 1, 3)  # (B, h, T, d_k)

    def _merge(self, x):
        B, h, T, d = x.shape
        return x.transpose(0, 2, 1, 3).reshape(B, T, h * d)  # (B, T, D): heads side by side

    def _kept(self, ablate, dtype):
        """(h, 1, 1): 1 for a head that runs, 0 for an ablated one."""
        keep = np.ones((self.heads, 1, 1), dtype=dtype)
        for head in ablate or ():
            if not 0 <= head < self.heads:
                raise ValueError("there is no head {} to ablate: heads are numbered 0 to {}".format(
                    head, self.heads - 1))
            keep[head] = 0
        return keep

    def forward(self, x, mask=None, ablate=None):
        q, cq = self.children["q"].forward(x)
        k, ck = self.children["k"].forward(x)
        v, cv = self.children["v"].forward(x)
        heads, A, ca = attention(self._split(q), self._split(k), self._split(v), mask)  # (B, h, T, d_k)
        self.maps = A
        keep = self._kept(ablate, heads.dtype)  # (h, 1, 1), broadcast over B, T, d_k
        out, co = self.children["o"].forward(self._merge(heads * keep))  # (B, T, D)
        return out, (cq, ck, cv, ca, co, keep)

    def backward(self, dout, cache):
        cq, ck, cv, ca, co, keep = cache
        grads = {}
        dmerged, grads["o"] = self.children["o"].backward(dout, co)
        dq, dk, dv = attention_backward(self._split(dmerged) * keep, ca)
        dx = 0
        for name, d, c in (("q", dq, cq), ("k", dk, ck), ("v", dv, cv)):
            dpart, grads[name] = self.children[name].backward(self._merge(d), c)
            dx = dx + dpart
        return dx, _flatten(grads)


class LayerNorm(Layer):
    """Normalize each position's vector, then scale and shift: (..., D) -> (..., D)."""

    def __init__(self, width, dtype=np.float32, eps=1e-5):
        super().__init__()
        self.params["gamma"] = np.ones(width, dtype=dtype)
        self.params["beta"] = np.zeros(width, dtype=dtype)
        self.eps = eps

    def forward(self, x):
        mean = x.mean(axis=-1, keepdims=True)
        inv = 1.0 / np.sqrt(x.var(axis=-1, keepdims=True) + self.eps)  # (..., 1)
        xhat = (x - mean) * inv  # (..., D)
        return xhat * self.params["gamma"] + self.params["beta"], (xhat, inv)

    def backward(self, dout, cache):
        xhat, inv = cache
        flat_d = dout.reshape(-1, dout.shape[-1])
        grads = {"gamma": (flat_d * xhat.reshape(flat_d.shape)).sum(axis=0), "beta": flat_d.sum(axis=0)}
        dxhat = dout * self.params["gamma"]
        D = dout.shape[-1]
        dx = inv / D * (D * dxhat - dxhat.sum(axis=-1, keepdims=True)
                        - xhat * (dxhat * xhat).sum(axis=-1, keepdims=True))
        return dx, grads


GELU_C = math.sqrt(2.0 / math.pi)


class MLP(Layer):
    """Linear, ReLU or GELU (tanh form), linear: (..., D) -> (..., D) through width F."""

    def __init__(self, width, hidden, rng, activation="relu", dtype=np.float32):
        super().__init__()
        if activation not in ("relu", "gelu"):
            raise ValueError("activation must be 'relu' or 'gelu', not {!r}".format(activation))
        self.activation = activation
        self.children["up"] = Linear(width, hidden, rng, dtype=dtype)
        self.children["down"] = Linear(hidden, width, rng, dtype=dtype)

    def forward(self, x):
        z, cu = self.children["up"].forward(x)  # (..., F)
        if self.activation == "relu":
            a = np.maximum(z, 0)
        else:
            a = 0.5 * z * (1 + np.tanh(GELU_C * (z + 0.044715 * z ** 3)))
        out, cd = self.children["down"].forward(a)
        return out, (cu, z, cd)

    def backward(self, dout, cache):
        cu, z, cd = cache
        grads = {}
        da, grads["down"] = self.children["down"].backward(dout, cd)
        if self.activation == "relu":
            dz = da * (z > 0)
        else:
            t = np.tanh(GELU_C * (z + 0.044715 * z ** 3))
            dz = da * (0.5 * (1 + t) + 0.5 * z * (1 - t ** 2) * GELU_C * (1 + 3 * 0.044715 * z ** 2))
        dx, grads["up"] = self.children["up"].backward(dz, cu)
        return dx, _flatten(grads)


class TransformerBlock(Layer):
    """x + attention(LN(x)), then + MLP(LN(...)): pre-norm residual sublayers, (B, T, D) -> (B, T, D).

    `ablate` names heads (0-based) removed from the attention sublayer, as in MultiHeadAttention.
    """

    def __init__(self, width, heads, hidden, rng, activation="relu", dtype=np.float32):
        super().__init__()
        self.children["ln1"] = LayerNorm(width, dtype)
        self.children["attention"] = MultiHeadAttention(width, heads, rng, dtype)
        self.children["ln2"] = LayerNorm(width, dtype)
        self.children["mlp"] = MLP(width, hidden, rng, activation, dtype)

    @property
    def maps(self):
        return self.children["attention"].maps

    def forward(self, x, mask=None, ablate=None):
        c = self.children
        n1, c1 = c["ln1"].forward(x)
        a, c2 = c["attention"].forward(n1, mask, ablate)
        x = x + a
        n2, c3 = c["ln2"].forward(x)
        m, c4 = c["mlp"].forward(n2)
        return x + m, (c1, c2, c3, c4)

    def backward(self, dout, cache):
        c = self.children
        c1, c2, c3, c4 = cache
        grads = {}
        dn2, grads["mlp"] = c["mlp"].backward(dout, c4)
        dx_mid, grads["ln2"] = c["ln2"].backward(dn2, c3)
        dx_mid = dx_mid + dout  # the residual path
        dn1, grads["attention"] = c["attention"].backward(dx_mid, c2)
        dx, grads["ln1"] = c["ln1"].backward(dn1, c1)
        return dx + dx_mid, _flatten(grads)


class AttentionOnlyBlock(Layer):
    """x + attention(x): one residual attention sublayer, no layer norm, no MLP; (B, T, D) -> (B, T, D).

    The block of an attention-only transformer: what each head writes is added to the
    residual stream unchanged, so a later block can read it (and its heads compose).
    """

    def __init__(self, width, heads, rng, dtype=np.float32):
        super().__init__()
        self.children["attention"] = MultiHeadAttention(width, heads, rng, dtype)

    @property
    def maps(self):
        return self.children["attention"].maps

    def forward(self, x, mask=None, ablate=None):
        a, cache = self.children["attention"].forward(x, mask, ablate)
        return x + a, cache

    def backward(self, dout, cache):
        dx, grads = self.children["attention"].backward(dout, cache)
        return dx + dout, {"attention." + name: value for name, value in grads.items()}  # + the residual path


def positional_encoding(length, width, dtype=np.float32):
    """Sinusoidal positions: even coordinates sin(t / 10000^(2i/D)), odd ones cos; (T, D)."""
    positions = np.arange(length)[:, None]  # (T, 1)
    rates = 1.0 / 10000 ** (np.arange(0, width, 2) / width)  # (D/2,)
    table = np.zeros((length, width))
    table[:, 0::2] = np.sin(positions * rates)
    table[:, 1::2] = np.cos(positions * rates[: width // 2])
    return table.astype(dtype)


def cross_entropy(logits, targets):
    """Mean softmax cross-entropy over every position: logits (..., C), targets (...) ints -> loss, dlogits."""
    probs = softmax(logits)  # (..., C)
    flat = probs.reshape(-1, probs.shape[-1])
    picked = flat[np.arange(flat.shape[0]), targets.reshape(-1)]
    loss = float(-np.log(np.maximum(picked, 1e-12)).mean())
    dlogits = flat.copy()
    dlogits[np.arange(flat.shape[0]), targets.reshape(-1)] -= 1
    return loss, (dlogits / flat.shape[0]).reshape(logits.shape)


def _flatten(grads):
    """{child: {name: g}} -> {"child.name": g}, matching Layer.parameters()."""
    flat = {}
    for child, inner in grads.items():
        for name, value in inner.items():
            flat[child + "." + name] = value
    return flat
