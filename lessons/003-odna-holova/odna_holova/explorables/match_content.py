"""«Змініть збіг, потім зміст»: the 2-D the/Eiffel/tower example, walked in three steps.

Axes: structure and Paris identity. Rows of X: the [0, 0], Eiffel [0, 1], tower [1, 0].
The receiving token is tower; keys stay the identity map and scores are divided by √2.

    step 0, raw similarity:  W_q = I,    W_v = I     weights [0.2483 0.2483 0.5035], mixture [0.5035 0.2483]
    step 1, swap the query:  W_q = swap, W_v = I     weights [0.2483 0.5035 0.2483], mixture [0.2483 0.5035]
    step 2, swap the values: W_q = swap, W_v = swap  the same weights, mixture [0.5035 0.2483]
"""

import numpy as np

from course.attention import attention
from course.explorables.engine import Bars, Explorable, Stepper, Table, Text, Value

TOKENS = ("the", "Eiffel", "tower")
AXES = ("структура", "Париж")  # the second axis is Paris identity
X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]])  # (3, 2)
I2 = np.eye(2)
SWAP = np.array([[0.0, 1.0], [1.0, 0.0]])
STEPS = (
    ("Сира схожість: Wq = I, Wv = I", I2, I2),
    ("Обмін запиту: Wq = swap, Wv = I", SWAP, I2),
    ("Обмін значень: Wq = swap, Wv = swap", SWAP, SWAP),
)
TOWER = TOKENS.index("tower")


def head(step):
    """Queries, keys, values, tower's weights and tower's mixture at one step; (3, 2) ×3, (3,), (2,)."""
    _, W_q, W_v = STEPS[step]
    Q, K, V = X @ W_q, X @ I2, X @ W_v  # (3, 2) each
    H, A = attention(Q, K, V)  # (3, 2), (3, 3)
    return Q, K, V, A[TOWER], H[TOWER]


def change(step):
    """What this step changed against the one before: a sentence computed from the numbers."""
    if step == 0:
        return "Початок: tower шукає вектори, схожі на себе, тож Eiffel має ту саму вагу, що й the."
    weights_before, mixture_before = head(step - 1)[3:]
    weights, mixture = head(step)[3:]
    if not np.allclose(weights, weights_before):
        return "Запит змінився, тож змінилися ваги: найбільшу частку тепер отримує {}.".format(
            TOKENS[int(np.argmax(weights))])
    if not np.allclose(mixture, mixture_before):
        return "Ваги ті самі, що на попередньому кроці; змінилися значення, а з ними й суміш."
    return "Ні ваги, ні суміш не змінилися."


def state(step):
    """What the figure draws at one step."""
    Q, K, V, weights, mixture = head(step)
    scores = K @ Q[TOWER] / np.sqrt(K.shape[-1])  # (3,)
    return {
        "query": [("Вхід tower: {x}; запит q_tower = x_tower @ Wq = {q}", {"x": X[TOWER], "q": Q[TOWER]}),
                  change(step)],
        "tokens": {
            "caption": "Ключі, оцінки, ваги tower і значення",
            "columns": ["Токен", "Ключ k", "q_tower · k / √2", "Вага tower", "Значення v"],
            "rows": [[token, K[j], scores[j], weights[j], V[j]] for j, token in enumerate(TOKENS)],
        },
        "vectors": {"axes": list(AXES), "title": "Запит, ключі й суміш tower (осі: структура й паризька ідентичність)",
                    "vectors": [("запит tower", Q[TOWER], "query")]
                    + [("ключ " + token, K[j], "key") for j, token in enumerate(TOKENS)]
                    + [("суміш tower", mixture, "value")]},
        "mixture": [("Ваги tower: {w}; суміш tower = Σ вага × значення = {h}", {"w": weights, "h": mixture}),
                    ("Після залишкового додавання: tower + суміш = {r}", {"r": X[TOWER] + mixture}),
                    ("Найбільша вага: {token}, {weight}", {"token": TOKENS[int(np.argmax(weights))],
                                                           "weight": Value(weights.max(), ".4f")})],
    }


def glue():
    """Tower's weights and mixture at every step: mc_<step>_weight_<token>, mc_<step>_mixture_<axis>."""
    values = {}
    for step in range(len(STEPS)):
        _, _, _, weights, mixture = head(step)
        for token, weight in zip(TOKENS, weights):
            values["mc_{}_weight_{}".format(step, token.lower())] = float(weight)
        for axis, value in zip(("structure", "paris"), mixture):
            values["mc_{}_mixture_{}".format(step, axis)] = float(value)
    return values


def explorable():
    """A stepper through the three steps, what tower asks, the table of matches, the vectors and the mixture."""
    return Explorable([
        Stepper("step", "Кроки прикладу tower", [title for title, _, _ in STEPS]),
        Text("query", spec=".4f"),
        Table("tokens", spec=".4f"),
        Bars("vectors", spec=".4f"),
        Text("mixture", spec=".4f"),
    ], state, glue)
