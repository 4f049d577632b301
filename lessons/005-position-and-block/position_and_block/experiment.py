"""The lesson's trained experiment: reverse a short digit sequence, with or without positions and residuals.

OrderModel is the toolkit's embedding, optional sinusoidal positions, pre-norm blocks, a final layer
norm and an output layer; with residual=False each block is BareBlock (attention, then MLP, no
residual path and no layer norm) and the final layer norm goes too. Shapes: ids (B, T) -> logits
(B, T, vocab). Forward and backward sit side by side, as in course.nn; tests/ checks the gradients
against finite differences.
"""

import numpy as np

from course.nn.layers import (
    MLP,
    Embedding,
    Layer,
    LayerNorm,
    Linear,
    MultiHeadAttention,
    TransformerBlock,
    _flatten,
    cross_entropy,
    positional_encoding,
)
from course.nn.optim import Adam

DIGITS = 10
LENGTH = 6


def reversal_data(count, seed):
    """`count` random digit sequences (count, LENGTH) and their reversals."""
    X = np.random.default_rng(seed).integers(0, DIGITS, size=(count, LENGTH))
    return X, X[:, ::-1].copy()


class BareBlock(Layer):
    """attention(x), then MLP(...): a block with no residual path and no layer norm, (B, T, D) -> (B, T, D)."""

    def __init__(self, width, heads, hidden, rng, dtype=np.float64):
        super().__init__()
        self.children["attention"] = MultiHeadAttention(width, heads, rng, dtype)
        self.children["mlp"] = MLP(width, hidden, rng, dtype=dtype)

    def forward(self, x, mask=None, ablate=None):
        a, ca = self.children["attention"].forward(x, mask, ablate)  # (B, T, D)
        m, cm = self.children["mlp"].forward(a)                      # (B, T, D)
        return m, (ca, cm)

    def backward(self, dout, cache):
        ca, cm = cache
        grads = {}
        da, grads["mlp"] = self.children["mlp"].backward(dout, cm)
        dx, grads["attention"] = self.children["attention"].backward(da, ca)
        return dx, _flatten(grads)


class OrderModel(Layer):
    """Digits in, one distribution over digits per position out: (B, T) ids -> (B, T, DIGITS) logits."""

    def __init__(self, positions=True, residual=True, width=32, heads=2, blocks=2, seed=0):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.positions, self.residual = positions, residual
        self.width, self.heads, self.hidden = width, heads, 4 * width  # what the lesson's prose quotes of the model
        self.children["embedding"] = Embedding(DIGITS, width, rng, np.float64)
        self.block_names = ["block{}".format(i + 1) for i in range(blocks)]
        for name in self.block_names:
            if residual:
                self.children[name] = TransformerBlock(width, heads, 4 * width, rng, dtype=np.float64)
            else:
                self.children[name] = BareBlock(width, heads, 4 * width, rng)
        if residual:
            self.children["ln"] = LayerNorm(width, np.float64)
        self.children["head"] = Linear(width, DIGITS, rng, dtype=np.float64)
        self.table = positional_encoding(LENGTH, width, np.float64)  # (T, D), fixed

    def forward(self, ids):
        x, ce = self.children["embedding"].forward(ids)  # (B, T, D)
        if self.positions:
            x = x + self.table[: ids.shape[1]]
        caches = []
        for name in self.block_names:
            x, c = self.children[name].forward(x)
            caches.append(c)
        cl = None
        if self.residual:
            x, cl = self.children["ln"].forward(x)
        logits, ch = self.children["head"].forward(x)  # (B, T, DIGITS)
        return logits, (ce, caches, cl, ch)

    def backward(self, dlogits, cache):
        ce, caches, cl, ch = cache
        grads = {}
        dx, inner = self.children["head"].backward(dlogits, ch)
        grads["head"] = inner
        if self.residual:
            dx, grads["ln"] = self.children["ln"].backward(dx, cl)
        for name, c in zip(reversed(self.block_names), reversed(caches)):
            dx, grads[name] = self.children[name].backward(dx, c)
        _, grads["embedding"] = self.children["embedding"].backward(dx, ce)
        return _flatten(grads)


def reversal_step(model, optimizer, X, Y, batch, rng):
    """One Adam step on a random mini-batch; returns its loss."""
    rows = rng.integers(0, len(X), size=batch)
    logits, cache = model.forward(X[rows])
    loss, dlogits = cross_entropy(logits, Y[rows])
    optimizer.step(model.backward(dlogits, cache))
    return loss


def accuracy(model, X, Y):
    """The fraction of digits the model writes right, and of whole sequences."""
    right = model.forward(X)[0].argmax(axis=-1) == Y
    return float(right.mean()), float(right.all(axis=1).mean())


def optimizer_for(model, lr):
    """Adam over every parameter of `model`."""
    return Adam(model.parameters(), lr=lr)


class PostNormBlock(Layer):
    """LN(x + attention(x)), then LN(... + MLP(...)): the original transformer's order, (B, T, D) -> (B, T, D)."""

    def __init__(self, width, heads, hidden, rng, dtype=np.float64):
        super().__init__()
        self.children["attention"] = MultiHeadAttention(width, heads, rng, dtype)
        self.children["ln1"] = LayerNorm(width, dtype)
        self.children["mlp"] = MLP(width, hidden, rng, dtype=dtype)
        self.children["ln2"] = LayerNorm(width, dtype)

    def forward(self, x, mask=None, ablate=None):
        c = self.children
        a, ca = c["attention"].forward(x, mask, ablate)
        h, c1 = c["ln1"].forward(x + a)        # (B, T, D)
        m, cm = c["mlp"].forward(h)
        out, c2 = c["ln2"].forward(h + m)
        return out, (ca, c1, cm, c2)

    def backward(self, dout, cache):
        c = self.children
        ca, c1, cm, c2 = cache
        grads = {}
        dsum, grads["ln2"] = c["ln2"].backward(dout, c2)   # into h + m
        dh, grads["mlp"] = c["mlp"].backward(dsum, cm)
        dh = dh + dsum                                      # the residual path around the MLP
        dsum, grads["ln1"] = c["ln1"].backward(dh, c1)     # into x + a
        dx, grads["attention"] = c["attention"].backward(dsum, ca)
        return dx + dsum, _flatten(grads)


def stack_gradients(blocks, x, seed=0):
    """Forward x through `blocks`, backward a fixed random linear loss; each block's gradient norm, first to last."""
    caches = []
    for block in blocks:
        x, cache = block.forward(x)
        caches.append(cache)
    dout = np.random.default_rng(seed).normal(size=x.shape)  # d(loss)/d(output) of loss = sum(output * dout)
    norms = []
    for block, cache in zip(reversed(blocks), reversed(caches)):
        dout, grads = block.backward(dout, cache)
        norms.append(float(np.sqrt(sum(float((g ** 2).sum()) for g in grads.values()))))
    return norms[::-1]
