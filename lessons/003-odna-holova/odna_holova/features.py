"""Can two small matrices recover identified features? A query map and a value map trained against fixed keys.

Tokens are 9-D vectors of known features (one per coordinate): q1 q2 q3 are read by the
teacher's query, v1 v2 v3 are carried by its values, n1 n2 n3 are read by nothing. Each
example is a receiving token r (9,) and four source tokens S (4, 9), all features N(0, 1).
The head: query r @ Wq (3,), fixed keys KEYS (4, 3) (one per source slot: the three axes and
a zero key), values S @ Wv (4, 3), output softmax(q Kᵀ / √3) @ V (3,). The targets come from
the teacher Wq* = 3·[q1→1, q2→2, q3→3], Wv* = [v1→1, v2→2, v3→3], plus noise 0.05 on the
training targets. Only Wq (9, 3) and Wv (9, 3) are trained: Adam at lr 0.05, full batch of
256 examples, 300 steps, mean squared error. Seeds: data 1 (training) and 2 (held out),
initialization 0; float64.

Fixed keys pin the query's coordinates (the zero key fixes even softmax's free shift) and
the targets pin the values' coordinates, so the learned maps can be compared with the
teacher's feature by feature: nothing is free to rotate.

In a cell:  head = build();  await train(head);  show_recovery(head);  show_held_out(head);
            show_interventions(head)
"""

import math

import numpy as np

from course.nn.layers import Layer, attention, attention_backward
from course.nn.optim import Adam
from course.nn.train import train_steps
from course.numbers import number

from .language import phrases

FEATURES = ("q1", "q2", "q3", "v1", "v2", "v3", "n1", "n2", "n3")
ROLES = ("query",) * 3 + ("value",) * 3 + ("none",) * 3
TEXT = {  # what the printouts write, per edition of the lesson
    "uk": {"roles": {"query": "запит", "value": "значення", "none": "жодна"},
           "recovery": "ознака   роль      карта запиту   карта значень   (у дужках — учитель)",
           "worst": "найбільша |навчене − учитель|: Wq {}, Wv {}",
           "held_out": "середньоквадратична похибка на відкладених прикладах {} (відповідь «завжди 0»: {})",
           "target": "ціль", "prediction": "передбачення",
           "interventions": "ознака   роль      зсув отримувача   зсув джерел   (наскільки рухається вихід)"},
    "en": {"roles": {"query": "query", "value": "value", "none": "none"},
           "recovery": "feature  role      query map       value map       (the teacher’s in parentheses)",
           "worst": "largest |learned − teacher|: Wq {}, Wv {}",
           "held_out": "mean squared error on held-out examples {} (always answering 0: {})",
           "target": "target", "prediction": "prediction",
           "interventions": "feature  role             receiver       sources   (how far the output moves when the feature moves)"},
    "es": {"roles": {"query": "consulta", "value": "valor", "none": "ninguno"},
           "recovery": "rasgo    papel     mapa consulta   mapa valores    (entre paréntesis, el del maestro)",
           "worst": "mayor |aprendido − maestro|: Wq {}, Wv {}",
           "held_out": "error cuadrático medio en ejemplos reservados {} (responder siempre 0: {})",
           "target": "objetivo", "prediction": "predicción",
           "interventions": "rasgo    papel            receptor       fuentes   (cuánto se mueve la salida al mover el rasgo)"},
}
KEYS = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]])  # (4 source slots, 3)
QUERY_STRENGTH = 3.0
TEACHER_Q = np.vstack([QUERY_STRENGTH * np.eye(3), np.zeros((6, 3))])  # (9, 3): reads q1 q2 q3
TEACHER_V = np.vstack([np.zeros((3, 3)), np.eye(3), np.zeros((3, 3))])  # (9, 3): carries v1 v2 v3
SOURCES = 4
WIDTH = len(FEATURES)
EXAMPLES = 256
NOISE = 0.05
STEPS = 300
LEARNING_RATE = 0.05
SEED, TRAIN_SEED, HELD_OUT_SEED = 0, 1, 2


class FixedKeyHead(Layer):
    """One head whose keys are given: (r (B, 9), S (B, 4, 9)) -> out (B, 3); learns Wq (9, 3) and Wv (9, 3)."""

    def __init__(self, keys=KEYS, features=WIDTH, seed=SEED):
        super().__init__()
        rng = np.random.default_rng(seed)
        width = keys.shape[1]
        self.keys = keys  # (S, 3): fixed, not a parameter
        self.params["Wq"] = rng.normal(size=(features, width)) / math.sqrt(features)  # (9, 3)
        self.params["Wv"] = rng.normal(size=(features, width)) / math.sqrt(features)  # (9, 3)
        self.weights = None

    def forward(self, r, S):
        Q = (r @ self.params["Wq"])[:, None, :]  # (B, 1, 3): one query per example
        V = S @ self.params["Wv"]  # (B, S, 3)
        out, A, cache = attention(Q, self.keys, V)  # (B, 1, 3), (B, 1, S)
        self.weights = A[:, 0]  # (B, S)
        return out[:, 0], (r, S, cache)

    def backward(self, dout, cache):
        r, S, attention_cache = cache
        dQ, _, dV = attention_backward(dout[:, None, :], attention_cache)  # (B, 1, 3), _, (B, S, 3)
        grads = {"Wq": r.T @ dQ[:, 0],  # (9, 3)
                 "Wv": S.reshape(-1, S.shape[-1]).T @ dV.reshape(-1, dV.shape[-1])}  # (9, 3)
        return None, grads


def teacher():
    """The head with the teacher's maps: the targets' source."""
    head = FixedKeyHead()
    head.params["Wq"][...] = TEACHER_Q
    head.params["Wv"][...] = TEACHER_V
    return head


def data(count=EXAMPLES, seed=TRAIN_SEED, noise=NOISE):
    """(r (N, 9), S (N, 4, 9), targets (N, 3)): random tokens and the teacher's outputs plus noise."""
    rng = np.random.default_rng(seed)
    r = rng.normal(size=(count, len(FEATURES)))
    S = rng.normal(size=(count, SOURCES, len(FEATURES)))
    targets = teacher().forward(r, S)[0] + noise * rng.normal(size=(count, KEYS.shape[1]))
    return r, S, targets


def mse(out, targets):
    """Mean squared error over every number, and its gradient."""
    diff = out - targets
    return float((diff ** 2).mean()), 2 * diff / diff.size


def build(seed=SEED):
    """The untrained head, seeded."""
    return FixedKeyHead(seed=seed)


async def train(head, steps=STEPS, lr=LEARNING_RATE, report=True):
    """Adam on the full training batch for `steps` steps; returns train_steps' record."""
    r, S, targets = data()
    optimizer = Adam(head.parameters(), lr=lr)

    def step(i):
        out, cache = head.forward(r, S)
        loss, dout = mse(out, targets)
        optimizer.step(head.backward(dout, cache)[1])
        return loss

    return await train_steps(step, steps, report=report)


def recovery(head):
    """Per feature: its role, how strongly each learned map reads it (row norm), and the teacher's."""
    return [{"feature": name, "role": role,
             "query": float(np.linalg.norm(head.params["Wq"][j])), "query_teacher": float(np.linalg.norm(TEACHER_Q[j])),
             "value": float(np.linalg.norm(head.params["Wv"][j])), "value_teacher": float(np.linalg.norm(TEACHER_V[j]))}
            for j, (name, role) in enumerate(zip(FEATURES, ROLES))]


def largest_differences(head):
    """The largest |learned − teacher| entry of each map: how closely each map was recovered."""
    return {"Wq": float(np.abs(head.params["Wq"] - TEACHER_Q).max()),
            "Wv": float(np.abs(head.params["Wv"] - TEACHER_V).max())}


def held_out(head, count=EXAMPLES):
    """Mean squared error on fresh noiseless examples, for the head and for always answering 0 (the baseline)."""
    r, S, targets = data(count, HELD_OUT_SEED, noise=0.0)
    out = head.forward(r, S)[0]
    return {"mse": mse(out, targets)[0], "baseline": float((targets ** 2).mean()),
            "examples": [{"target": targets[i].tolist(), "prediction": out[i].tolist()} for i in range(3)]}


def interventions(head, size=1.0, count=EXAMPLES):
    """Per feature: mean |change of the output| when the receiving token, or every source, moves `size` along it."""
    r, S, _ = data(count, HELD_OUT_SEED, noise=0.0)
    base = head.forward(r, S)[0]  # (N, 3)
    found = []
    for j, name in enumerate(FEATURES):
        step = size * np.eye(len(FEATURES))[j]  # (9,)
        moved_r = head.forward(r + step, S)[0]
        moved_s = head.forward(r, S + step)[0]
        found.append({"feature": name, "role": ROLES[j],
                      "receiving": float(np.linalg.norm(moved_r - base, axis=1).mean()),
                      "sources": float(np.linalg.norm(moved_s - base, axis=1).mean())})
    return found


def show_recovery(head):
    """Print, per feature, how strongly the learned query and value maps read it (teacher's in brackets)."""
    say = phrases(TEXT)
    print(say["recovery"])
    for row in recovery(head):
        print("{:<8} {:<9} {} ({})      {} ({})".format(
            row["feature"], say["roles"][row["role"]], number(row["query"], "6.3f"), number(row["query_teacher"], ".0f"),
            number(row["value"], "6.3f"), number(row["value_teacher"], ".0f")))
    worst = largest_differences(head)
    print(say["worst"].format(number(worst["Wq"], ".3f"), number(worst["Wv"], ".3f")))


def show_held_out(head):
    """Print the held-out error against the always-zero baseline, and three held-out predictions."""
    found = held_out(head)
    say = phrases(TEXT)
    print(say["held_out"].format(number(found["mse"], ".4f"), number(found["baseline"], ".4f")))
    for example in found["examples"]:
        print(say["target"], number(example["target"], ".2f"), say["prediction"], number(example["prediction"], ".2f"))


def show_interventions(head, size=1.0):
    """Print how far the output moves when one feature of the receiving token or of every source moves."""
    say = phrases(TEXT)
    print(say["interventions"])
    for row in interventions(head, size):
        print("{:<8} {:<9} {:>15} {:>13}".format(row["feature"], say["roles"][row["role"]], number(row["receiving"], ".3f"),
                                                 number(row["sources"], ".3f")))
