"""Follow one sentence through training: a 2-D one-head classifier, stage by stage, one SGD step at a time.

Model: course.nn.models.SenseClassifier with width 2: embedding E (4, 2) for the, river,
money, bank; Wq, Wk, Wv (2, 2) without bias; a classifier W (2, 2) and b (2,) read at the
last position (bank). Classes: 0 water, 1 finance. Seed 0 (default_rng), float64; the tables
start random, the classifier bias at zero.

Data: "the river bank" -> water, "the money bank" -> finance. Update i trains on example
(first + i) % 2 with SGD at learning rate 0.3, so "train more" alternates the two sentences.
state(update, first) gives the eight stages of update number `update` (0-based):
sentence, lookup (E (4, 2), X (3, 2)), qkv (Wq, Wk, Wv (2, 2); Q, K, V (3, 2)), mixture (bank's
dot products, scores = dots / √2 and weights (3,); its mixture h (2,)), prediction (W (2, 2),
b (2,), logits and probabilities (2,)), loss, gradients (every group, with the rows of the
words absent from the sentence, exactly zero) and update (every group after the step, and
the loss on the same sentence after it). Every number is JSON-ready, rounded to 6 decimals.
precomputed() holds the first PRECOMPUTED states for either first sentence, so an explorable
shows them before Python loads; state() computes any later one (one update per new step).
"""

import numpy as np

from course.nn.layers import cross_entropy
from course.nn.models import SenseClassifier

from .sense import SENSE_VOCAB

SEED = 0
LEARNING_RATE = 0.3
PRECOMPUTED = 16  # from update 14 (15 when "money" goes first) both sentences are classified right
WORDS = tuple(SENSE_VOCAB)  # ("the", "river", "money", "bank"): the rows of E
EXAMPLES = ((("the", "river", "bank"), 0), (("the", "money", "bank"), 1))
LABELS = ("water", "finance")
STAGES = ("sentence", "lookup", "qkv", "mixture", "prediction", "loss", "gradients", "update")
GROUPS = {"embedding.E": "E", "q.W": "Wq", "k.W": "Wk", "v.W": "Wv", "classifier.W": "W", "classifier.b": "b"}

_trajectories = {}  # first sentence -> parameters after 0, 1, 2, … updates (so a step costs one update)


def model(seed=SEED):
    """The seeded 2-D classifier, as Reset leaves it."""
    return SenseClassifier(vocab=len(WORDS), width=2, classes=2, seed=seed, dtype=np.float64)


def _json(array):
    """Rounded to 6 decimals, as nested lists, with -0.0 written as 0.0."""
    return (np.round(np.asarray(array, dtype=np.float64), 6) + 0.0).tolist()


def _groups(arrays):
    """Parameter arrays by their short names (E, Wq, Wk, Wv, W, b), JSON-ready."""
    return {short: _json(arrays[name]) for name, short in GROUPS.items()}


def load(net, parameters):
    """Copy saved parameter arrays into the model's own."""
    for name, value in net.parameters().items():
        value[...] = parameters[name]


def _example(update, first):
    """The example update number `update` trains on."""
    return (first + update) % len(EXAMPLES)


def _forward(net, words, target):
    """Forward pass, loss and gradients for one sentence; (logits, loss, grads, intermediates)."""
    ids = np.array([SENSE_VOCAB[word] for word in words])  # (T,)
    logits, cache = net.forward(ids)  # (2,)
    _, X, _, _, (Q, K, V, A), h, _ = cache  # X (T, 2); Q, K, V (T, 2); A (T, T); h (2,) = H[-1]
    loss, dlogits = cross_entropy(logits[None, :], np.array([target]))
    grads = net.backward(dlogits[0], cache)
    return logits, loss, grads, (ids, X, Q, K, V, A, h)


def loss_and_prediction(net, words, target):
    """The cross-entropy of one sentence under `net`'s parameters, and whether its class is predicted right."""
    logits = net.forward(np.array([SENSE_VOCAB[word] for word in words]))[0]  # (2,)
    return float(cross_entropy(logits[None, :], np.array([target]))[0]), int(logits.argmax()) == target


def parameters_after(updates, first=0):
    """The parameters (name -> array) after `updates` alternating SGD steps from the seeded start."""
    trajectory = _trajectories.setdefault(first, [])
    if not trajectory:
        trajectory.append({name: value.copy() for name, value in model().parameters().items()})
    net = model()
    while len(trajectory) <= updates:
        load(net, trajectory[-1])
        words, target = EXAMPLES[_example(len(trajectory) - 1, first)]
        grads = _forward(net, words, target)[2]
        trajectory.append({name: value - LEARNING_RATE * grads[name] for name, value in trajectory[-1].items()})
    return trajectory[updates]


def state(update=0, first=0):
    """The eight stages of update number `update` (0-based) when training starts with example `first`."""
    net = model()
    load(net, parameters_after(update, first))
    words, target = EXAMPLES[_example(update, first)]
    before = {name: value.copy() for name, value in net.parameters().items()}
    logits, loss, grads, (ids, X, Q, K, V, A, h) = _forward(net, words, target)
    probs = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()  # (2,)
    after = parameters_after(update + 1, first)
    load(net, after)
    loss_after = cross_entropy(net.forward(ids)[0][None, :], np.array([target]))[0]
    absent = [word for word in WORDS if word not in words]
    d_k = Q.shape[-1]
    stages = [
        {"stage": "sentence", "words": list(words), "target": target, "target_name": LABELS[target]},
        {"stage": "lookup", "rows": list(WORDS), "ids": ids.tolist(), "E": _json(before["embedding.E"]), "X": _json(X)},
        {"stage": "qkv", "Wq": _json(before["q.W"]), "Wk": _json(before["k.W"]), "Wv": _json(before["v.W"]),
         "Q": _json(Q), "K": _json(K), "V": _json(V)},
        {"stage": "mixture", "dots": _json(K @ Q[-1]), "scale": _json(np.sqrt(d_k)),
         "scores": _json(K @ Q[-1] / np.sqrt(d_k)), "weights": _json(A[-1]), "mixture": _json(h)},
        {"stage": "prediction", "W": _json(before["classifier.W"]), "b": _json(before["classifier.b"]),
         "logits": _json(logits), "probabilities": _json(probs), "predicted": int(logits.argmax()),
         "predicted_name": LABELS[int(logits.argmax())]},
        {"stage": "loss", "loss": _json(loss), "probability_of_target": _json(probs[target])},
        {"stage": "gradients", "gradients": _groups(grads), "absent": absent,
         "absent_rows": [WORDS.index(word) for word in absent]},
        {"stage": "update", "learning_rate": LEARNING_RATE, "parameters": _groups(after), "loss_after": _json(loss_after)},
    ]
    return {"update": update, "first": first, "example": _example(update, first), "stages": stages}


def precomputed(steps=PRECOMPUTED):
    """The first `steps` states for either first sentence: what the explorable shows before Python loads."""
    return {"learning_rate": LEARNING_RATE, "words": list(WORDS), "labels": list(LABELS),
            "examples": [{"words": list(words), "target": target} for words, target in EXAMPLES],
            "stages": list(STAGES), "precomputed": steps,
            "states": [[state(update, first) for update in range(steps)] for first in range(len(EXAMPLES))]}
