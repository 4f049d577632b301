"""A character-level GPT: token and position embeddings, causal pre-norm blocks, a final layer norm, an unembedding.

Shapes: B batch, T positions (T <= length, the context), D width, V vocabulary.
    GPT.forward(ids (B, T), ablate=None) -> logits (B, T, V), cache;  GPT.backward(dlogits, cache) -> grads
Parameters live in one flat dict (model.parameters(): dotted name -> array); save() writes them as float32
to a compressed .npz with the model's sizes, load() reads them back. windows() cuts a text's ids into training
pairs, Batches draws mini-batches as a fresh permutation per epoch, GPTTraining trains in parts the page can
stop, and generate() samples, feeding the model at most its context.
"""

import json
import math

import numpy as np

from course.attention import softmax

from .layers import Embedding, Layer, LayerNorm, Linear, TransformerBlock, cross_entropy
from .models import blocks_backward, blocks_forward, causal_mask, heads_by_block
from .optim import Adam, Flat
from .train import train_steps

CONFIG_KEY = "config"  # the .npz entry holding the sizes as JSON text; every other entry is a parameter


class GPT(Layer):
    """Token ids in, next-token logits out at every position: (B, T) ids -> (B, T, V), T <= length.

    `blocks` pre-norm TransformerBlocks under a causal mask; forward(ids, ablate=[(block, head), ...]) runs
    with those heads (0-based) removed; after each forward `maps()` holds every block's attention.
    """

    def __init__(self, vocab, length=16, width=64, heads=4, blocks=2, hidden=None, activation="relu", seed=0,
                 dtype=np.float32):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.config = {"vocab": vocab, "length": length, "width": width, "heads": heads, "blocks": blocks,
                       "hidden": hidden or 4 * width, "activation": activation, "seed": seed}
        self.vocab, self.length = vocab, length
        self.children["embedding"] = Embedding(vocab, width, rng, dtype)
        self.children["position"] = Embedding(length, width, rng, dtype)
        self.block_names = ["block{}".format(i + 1) for i in range(blocks)]
        for name in self.block_names:
            self.children[name] = TransformerBlock(width, heads, hidden or 4 * width, rng, activation, dtype)
        self.children["ln"] = LayerNorm(width, dtype)
        self.children["unembed"] = Linear(width, vocab, rng, bias=False, dtype=dtype)

    def forward(self, ids, ablate=None):
        ids = np.asarray(ids)
        if ids.ndim != 2:
            raise ValueError("ids must be (batch, positions), not of shape {}: pass one sequence as ids[None, :]".format(
                ids.shape))
        T = ids.shape[1]
        if T > self.length:
            raise ValueError("the model reads at most {} tokens at a time, not {}: pass ids[:, -{}:]".format(
                self.length, T, self.length))
        tokens, ce = self.children["embedding"].forward(ids)  # (B, T, D)
        places, cp = self.children["position"].forward(np.arange(T))  # (T, D)
        x, caches = blocks_forward(self, tokens + places, causal_mask(T), heads_by_block(ablate, len(self.block_names)))
        x, cl = self.children["ln"].forward(x)  # (B, T, D)
        logits, cu = self.children["unembed"].forward(x)  # (B, T, V)
        return logits, (ce, cp, caches, cl, cu)

    def backward(self, dlogits, cache):
        ce, cp, caches, cl, cu = cache
        grads = {}
        dx = self.child_backward("ln", self.child_backward("unembed", dlogits, cu, grads), cl, grads)
        dx = blocks_backward(self, dx, caches, grads)  # (B, T, D)
        self.child_backward("embedding", dx, ce, grads)
        self.child_backward("position", dx.sum(axis=0), cp, grads)  # every sequence shares the positions
        return grads

    def maps(self):
        """The attention of the last forward pass: one (B, heads, T, T) array per block."""
        return [self.children[name].maps for name in self.block_names]


def save(model, file):
    """Write the model's sizes and parameters (as float32) to `file`, a path or a binary file, as a compressed .npz."""
    arrays = {name: np.asarray(value, dtype=np.float32) for name, value in model.parameters().items()}
    arrays[CONFIG_KEY] = np.array(json.dumps(model.config, sort_keys=True))
    np.savez_compressed(file, **arrays)


def load(file, dtype=np.float32):
    """The GPT that save() wrote to `file`, its parameters in `dtype`."""
    with np.load(file, allow_pickle=False) as stored:
        if CONFIG_KEY not in stored.files:
            raise ValueError("{}: not a GPT checkpoint (no '{}' entry); write one with course.nn.gpt.save".format(
                file, CONFIG_KEY))
        model = GPT(dtype=dtype, **json.loads(str(stored[CONFIG_KEY])))
        params = model.parameters()
        found = sorted(set(stored.files) - {CONFIG_KEY})
        if found != sorted(params):
            raise ValueError("{}: the checkpoint's parameters ({}) are not the model's ({}); it was written by "
                             "other code".format(file, ", ".join(found), ", ".join(sorted(params))))
        for name, value in params.items():
            value[...] = stored[name]
    return model


def windows(ids, length):
    """Every stretch of `length` ids and the stretch one further on: inputs X (N, length), targets Y (N, length)."""
    ids = np.asarray(ids)
    count = len(ids) - length
    if count < 1:
        raise ValueError("a text of {} tokens has no window of {} tokens and a next one; use a longer text or a "
                         "shorter length".format(len(ids), length))
    rows = np.arange(count)[:, None] + np.arange(length)  # (N, length)
    return ids[rows], ids[rows + 1]


class Batches:
    """Row numbers of mini-batches: each epoch a fresh permutation of `count` rows cut into batches (the last may
    be shorter), drawn from a generator seeded with `seed`; the order carries on from one call of next() to the next."""

    def __init__(self, count, batch, seed=0):
        self.count, self.batch = count, batch
        self.per_epoch = math.ceil(count / batch)
        self.rng = np.random.default_rng(seed)
        self.order, self.start = None, count

    def next(self):
        """The rows of the next batch: (<= batch,) ints."""
        if self.start >= self.count:
            self.order, self.start = self.rng.permutation(self.count), 0
        rows = self.order[self.start:self.start + self.batch]
        self.start += self.batch
        return rows


def mean_loss(model, X, Y, batch=256):
    """The model's mean cross-entropy (nats) over every position of X -> Y, computed in batches."""
    total = 0.0
    for start in range(0, len(X), batch):
        loss, _ = cross_entropy(model.forward(X[start:start + batch])[0], Y[start:start + batch])
        total += loss * Y[start:start + batch].size
    return total / Y.size


class GPTTraining:
    """Adam on mini-batches of (X, Y), run in parts: the optimizer's state and the batch order carry on from one
    run() to the next, so a stopped training goes on where it stopped. Deterministic from `seed`."""

    def __init__(self, model, X, Y, batch=32, lr=3e-3, seed=0):
        self.model, self.X, self.Y = model, X, Y
        self.optimizer = Flat(model, lambda params: Adam(params, lr=lr))
        self.batches = Batches(len(X), batch, seed)
        self.step_losses = []

    def step(self, i=None):
        """One optimizer step on the next batch; its loss."""
        rows = self.batches.next()
        logits, cache = self.model.forward(self.X[rows])
        loss, dlogits = cross_entropy(logits, self.Y[rows])
        self.optimizer.step(self.model.backward(dlogits.astype(logits.dtype), cache))
        self.step_losses.append(loss)
        return loss

    async def run(self, steps, report=True):
        """`steps` more steps as a training the page can watch and stop (course.nn.train.train_steps); its record."""
        return await train_steps(self.step, steps, per_epoch=self.batches.per_epoch, report=report)


def generate(model, prompt_ids, n_tokens, rng, probabilities=softmax, stop=None):
    """The prompt followed by up to `n_tokens` ids drawn one at a time: (len(prompt) + <= n_tokens,) ints.

    Each draw feeds the model the last `model.length` ids at most and draws with rng.choice from
    probabilities(logits) (float64 (V,) -> (V,), softmax by default), renormalised; drawing the id `stop` (if given)
    ends the text after it.
    """
    ids = [int(i) for i in prompt_ids]
    if not ids:
        raise ValueError("the prompt is empty: give at least one id to start from (a start or newline token)")
    for _ in range(n_tokens):
        logits = model.forward(np.array([ids[-model.length:]]))[0][0, -1].astype(np.float64)  # (V,): the last one's
        p = np.asarray(probabilities(logits), dtype=np.float64)  # (V,)
        p = p / p.sum()  # rng.choice wants a sum of 1 to 1e-8; float32 rounding misses that
        ids.append(int(rng.choice(len(p), p=p)))
        if ids[-1] == stop:
            break
    return np.array(ids)
