"""Models built from the layers: a toy sequence transformer, an attention-only causal transformer
and the one-head sense classifier."""

import numpy as np

from .layers import (
    AttentionOnlyBlock,
    Embedding,
    Layer,
    LayerNorm,
    Linear,
    TransformerBlock,
    attention,
    attention_backward,
    positional_encoding,
)


class SequenceTransformer(Layer):
    """Digits in, a distribution over digits out at every position: (B, T) ids -> (B, T, vocab) logits.

    Embedding, optional sinusoidal positions, `blocks` pre-norm transformer blocks, a final
    layer norm and a per-position output layer. forward(ids, ablate=[(block, head), ...]) runs with
    those heads (0-based) removed, as AttentionOnlyTransformer does.
    """

    def __init__(self, vocab=10, length=8, width=32, heads=2, blocks=2, hidden=None, positions=True,
                 activation="relu", seed=0, dtype=np.float32):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.vocab, self.length, self.positions = vocab, length, positions
        self.children["embedding"] = Embedding(vocab, width, rng, dtype)
        self.block_names = ["block{}".format(i + 1) for i in range(blocks)]
        for name in self.block_names:
            self.children[name] = TransformerBlock(width, heads, hidden or 4 * width, rng, activation, dtype)
        self.children["ln"] = LayerNorm(width, dtype)
        self.children["head"] = Linear(width, vocab, rng, dtype=dtype)
        self.table = positional_encoding(length, width, dtype)  # (T, D), not learned

    def forward(self, ids, mask=None, ablate=None):
        x, ce = self.children["embedding"].forward(ids)  # (B, T, D)
        if self.positions:
            x = x + self.table[: ids.shape[1]]
        x, caches = blocks_forward(self, x, mask, heads_by_block(ablate, len(self.block_names)))
        x, cl = self.children["ln"].forward(x)
        logits, ch = self.children["head"].forward(x)  # (B, T, vocab)
        return logits, (ce, caches, cl, ch)

    def backward(self, dlogits, cache):
        ce, caches, cl, ch = cache
        grads = {}
        dx = self.child_backward("ln", self.child_backward("head", dlogits, ch, grads), cl, grads)
        self.child_backward("embedding", blocks_backward(self, dx, caches, grads), ce, grads)
        return grads

    def maps(self):
        """The attention maps of the last forward pass: one (B, h, T, T) array per block."""
        return [self.children[name].maps for name in self.block_names]

    def predict(self, ids):
        """The most likely digit at every position: (B, T)."""
        return self.forward(ids)[0].argmax(axis=-1)

    def attention_figure(self, sequence, row_name="", col_name="", title="{block}, {head}"):
        """The maps of every block and head for one sequence, as a grid of heatmaps (blocks × heads).

        Columns are the input digits (what is read), rows the predicted digits (what is written).
        `title` is formatted with block and head numbers, e.g. "Bloque {block}, cabeza {head}".
        """
        from course.display import heatmap_grid
        ids = np.asarray(sequence)[None, :]  # (1, T)
        predicted = self.predict(ids)[0]  # runs forward, so the maps are this sequence's
        maps = [block_maps[0] for block_maps in self.maps()]  # per block: (h, T, T)
        cols = [str(digit) for digit in ids[0]]
        rows = [str(digit) for digit in predicted]
        titles = [[title.format(block=b + 1, head=h + 1) for h in range(len(maps[b]))] for b in range(len(maps))]
        return heatmap_grid([list(block) for block in maps], rows, cols, titles, row_name, col_name)


def blocks_forward(model, x, mask, off):
    """x through the model's blocks in order, each with the mask and its heads in `off` removed: (B, T, D) and the
    blocks' caches."""
    caches = []
    for index, name in enumerate(model.block_names):
        x, c = model.children[name].forward(x, mask, off.get(index))
        caches.append(c)
    return x, caches


def blocks_backward(model, dx, caches, grads):
    """Back through the model's blocks, last first: their gradients go into `grads`; the gradient of the first
    block's input."""
    for name, c in zip(reversed(model.block_names), reversed(caches)):
        dx = model.child_backward(name, dx, c, grads)
    return dx


def heads_by_block(ablate, blocks):
    """{block index: [heads]} from (block, head) pairs, refusing a block the model does not have."""
    found = {}
    for layer, head in ablate or ():
        if not 0 <= layer < blocks:
            raise ValueError("there is no layer {} to ablate: layers are numbered 0 to {}".format(layer, blocks - 1))
        found.setdefault(layer, []).append(head)
    return found


def causal_mask(length):
    """(T, T) bool, True above the diagonal: position t may read positions 0 … t only."""
    return np.triu(np.ones((length, length), dtype=bool), k=1)


class AttentionOnlyTransformer(Layer):
    """Tokens in, next-token logits out, through causal attention-only blocks: (B, T) ids -> (B, T, vocab).

    A token embedding plus a learned position embedding, `layers` blocks of x + attention(x)
    (no layer norm, no MLP) under a causal mask, then an unembedding without bias.
    forward(ids, ablate=[(layer, head), ...]) runs with those heads (0-based) removed;
    after each forward `maps()` holds every block's attention, (B, heads, T, T) per block.
    """

    def __init__(self, vocab, length, width=32, heads=2, layers=2, seed=0, dtype=np.float32):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.vocab, self.length, self.heads = vocab, length, heads
        self.children["embedding"] = Embedding(vocab, width, rng, dtype)
        self.children["position"] = Embedding(length, width, rng, dtype)
        self.block_names = ["block{}".format(i + 1) for i in range(layers)]
        for name in self.block_names:
            self.children[name] = AttentionOnlyBlock(width, heads, rng, dtype)
        self.children["unembed"] = Linear(width, vocab, rng, bias=False, dtype=dtype)

    def forward(self, ids, ablate=None):
        T = ids.shape[1]
        tokens, ce = self.children["embedding"].forward(ids)  # (B, T, D)
        places, cp = self.children["position"].forward(np.arange(T))  # (T, D)
        x = tokens + places
        x, caches = blocks_forward(self, x, causal_mask(T), heads_by_block(ablate, len(self.block_names)))
        logits, cu = self.children["unembed"].forward(x)  # (B, T, vocab)
        return logits, (ce, cp, caches, cu)

    def backward(self, dlogits, cache):
        ce, cp, caches, cu = cache
        grads = {}
        dx = blocks_backward(self, self.child_backward("unembed", dlogits, cu, grads), caches, grads)
        self.child_backward("embedding", dx, ce, grads)
        self.child_backward("position", dx.sum(axis=0), cp, grads)  # every sequence shares the positions
        return grads

    def maps(self):
        """The attention of the last forward pass: one (B, heads, T, T) array per block."""
        return [self.children[name].maps for name in self.block_names]


class SenseClassifier(Layer):
    """One attention head without biases, read at the last position by a linear classifier.

    ids (T,) -> logits (classes,). With the default sizes: 4·8 + 3·8·8 + (8·2 + 2) = 242 parameters.
    """

    def __init__(self, vocab=4, width=8, classes=2, seed=0, dtype=np.float32):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.children["embedding"] = Embedding(vocab, width, rng, dtype)
        for name in ("q", "k", "v"):
            self.children[name] = Linear(width, width, rng, bias=False, dtype=dtype)
        self.children["classifier"] = Linear(width, classes, rng, dtype=dtype)
        self.map = None

    def forward(self, ids):
        c = self.children
        X, ce = c["embedding"].forward(ids)  # (T, D)
        Q, cq = c["q"].forward(X)
        K, ck = c["k"].forward(X)
        V, cv = c["v"].forward(X)
        H, A, ca = attention(Q, K, V)  # (T, D), (T, T)
        self.map = A
        logits, cc = c["classifier"].forward(H[-1])  # (classes,): only the last position is read
        return logits, (ce, cq, ck, cv, ca, cc, H.shape)

    def backward(self, dlogits, cache):
        ce, cq, ck, cv, ca, cc, shape = cache
        c = self.children
        grads = {}
        dlast, inner = c["classifier"].backward(dlogits[None, :], cc[None, :])
        grads.update(("classifier." + k, v) for k, v in inner.items())
        dH = np.zeros(shape, dtype=dlast.dtype)
        dH[-1] = dlast[0]
        dQ, dK, dV = attention_backward(dH, ca)
        dX = 0
        for name, d, cache_x in (("q", dQ, cq), ("k", dK, ck), ("v", dV, cv)):
            dpart, inner = c[name].backward(d, cache_x)
            grads.update((name + "." + k, v) for k, v in inner.items())
            dX = dX + dpart
        _, inner = c["embedding"].backward(dX, ce)
        grads.update(("embedding." + k, v) for k, v in inner.items())
        return grads
