"""«Змініть збіг, потім зміст»: the 2-D the/Eiffel/tower example with two independent switches.

Axes: structure and «паризькість». Rows of X: the [0, 0], Eiffel [0, 1], tower [1, 0].
The receiving token is tower; keys stay the identity map and scores are divided by √2.
One toggle swaps the query (W_q = swap), the other the values (W_v = swap): four states.

    neither:      weights [0.2483 0.2483 0.5035], mixture [0.5035 0.2483]
    query only:   weights [0.2483 0.5035 0.2483], mixture [0.2483 0.5035]
    values only:  weights [0.2483 0.2483 0.5035], mixture [0.2483 0.5035]  (other weights, the same mixture)
    both:         weights [0.2483 0.5035 0.2483], mixture [0.5035 0.2483]
"""

import numpy as np

from course.attention import attention
from course.explorables.engine import Bars, Explorable, Table, Text, Toggle, Value

from ..language import phrases

TOKENS = ("the", "Eiffel", "tower")
X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]])  # (3, 2)
I2 = np.eye(2)
SWAP = np.array([[0.0, 1.0], [1.0, 0.0]])
STATES = (("raw", False, False), ("query", True, False), ("values", False, True), ("both", True, True))
TEXT = {  # everything the figure writes, per edition of the lesson
    "uk": {
        "axes": ("структура", "паризькість"),
        "states": {"raw": "сира схожість", "query": "переставлено лише запит", "values": "переставлено лише значення",
                   "both": "переставлено запит і значення"},
        "largest": "Найбільшу вагу, {weight}, бере {token}.",
        "same_mixture": "Суміш та сама, що й у стані «{}», хоча ваги там {}.", "same": "ті самі", "other": "інші",
        "query": "Вхід tower: {x}; запит q_tower = x_tower @ Wq = {q}",
        "caption": "Ключі, оцінки, ваги tower і значення",
        "columns": ["Токен", "Ключ k", "q_tower · k / √2", "Вага tower", "Значення v"],
        "vectors": "Запит, ключі й суміш tower (осі: структура й паризькість)",
        "query_bar": "запит tower", "key_bar": "ключ {}", "mixture_bar": "суміш tower",
        "mixture": "Ваги tower: {w}; суміш tower = Σ вага × значення = {h}",
        "swap_query": "Переставити запит: Wq = swap", "swap_values": "Переставити значення: Wv = swap",
    },
    "en": {
        "axes": ("structure", "Parisness"),
        "states": {"raw": "raw similarity", "query": "only the query swapped", "values": "only the values swapped",
                   "both": "query and values swapped"},
        "largest": "{token} takes the largest weight, {weight}.",
        "same_mixture": "The mixture is the same as in the state “{}”, although the weights there are {}.",
        "same": "the same", "other": "different",
        "query": "The input of tower: {x}; its query q_tower = x_tower @ Wq = {q}",
        "caption": "Keys, scores, tower’s weights and values",
        "columns": ["Token", "Key k", "q_tower · k / √2", "tower’s weight", "Value v"],
        "vectors": "tower’s query, the keys and tower’s mixture (axes: structure and Parisness)",
        "query_bar": "query of tower", "key_bar": "key of {}", "mixture_bar": "mixture of tower",
        "mixture": "tower’s weights: {w}; tower’s mixture = Σ weight × value = {h}",
        "swap_query": "Swap the query: Wq = swap", "swap_values": "Swap the values: Wv = swap",
    },
    "es": {
        "axes": ("estructura", "parisinidad"),
        "states": {"raw": "similitud bruta", "query": "sólo la consulta permutada", "values": "sólo los valores permutados",
                   "both": "consulta y valores permutados"},
        "largest": "{token} se lleva el mayor peso, {weight}.",
        "same_mixture": "La mezcla es la misma que en el estado «{}», aunque allí los pesos son {}.",
        "same": "los mismos", "other": "otros",
        "query": "La entrada de tower: {x}; su consulta q_tower = x_tower @ Wq = {q}",
        "caption": "Claves, puntuaciones, pesos de tower y valores",
        "columns": ["Token", "Clave k", "q_tower · k / √2", "Peso de tower", "Valor v"],
        "vectors": "Consulta de tower, claves y mezcla de tower (ejes: estructura y parisinidad)",
        "query_bar": "consulta de tower", "key_bar": "clave de {}", "mixture_bar": "mezcla de tower",
        "mixture": "Pesos de tower: {w}; mezcla de tower = Σ peso × valor = {h}",
        "swap_query": "Permutar la consulta: Wq = swap", "swap_values": "Permutar los valores: Wv = swap",
    },
}
TOWER = TOKENS.index("tower")


def head(swap_query, swap_values):
    """Queries, keys, values, tower's weights and tower's mixture; (3, 2) ×3, (3,), (2,)."""
    W_q = SWAP if swap_query else I2
    W_v = SWAP if swap_values else I2
    Q, K, V = X @ W_q, X @ I2, X @ W_v  # (3, 2) each
    H, A = attention(Q, K, V)  # (3, 2), (3, 3)
    return Q, K, V, A[TOWER], H[TOWER]


def describe(swap_query, swap_values):
    """Two sentences computed from the numbers: who gets the largest weight, and which state mixes the same."""
    weights, mixture = head(swap_query, swap_values)[3:]
    winner = TOKENS[int(np.argmax(weights))]
    say = phrases(TEXT)
    lines = [(say["largest"], {"weight": Value(weights.max(), ".4f"), "token": winner})]
    for name, query, values in STATES:
        other_weights, other_mixture = head(query, values)[3:]
        if (query, values) != (swap_query, swap_values) and np.allclose(other_mixture, mixture):
            same = say["same"] if np.allclose(other_weights, weights) else say["other"]
            lines.append(say["same_mixture"].format(say["states"][name], same))
    return lines


def state(swap_query, swap_values):
    """What the figure draws with the query and the values swapped or not."""
    Q, K, V, weights, mixture = head(swap_query, swap_values)
    scores = K @ Q[TOWER] / np.sqrt(K.shape[-1])  # (3,)
    say = phrases(TEXT)
    return {
        "query": [(say["query"], {"x": X[TOWER], "q": Q[TOWER]})],
        "tokens": {
            "caption": say["caption"],
            "columns": list(say["columns"]),
            "rows": [[token, K[j], scores[j], weights[j], V[j]] for j, token in enumerate(TOKENS)],
        },
        "vectors": {"axes": list(say["axes"]), "title": say["vectors"],
                    "vectors": [(say["query_bar"], Q[TOWER], "query")]
                    + [(say["key_bar"].format(token), K[j], "key") for j, token in enumerate(TOKENS)]
                    + [(say["mixture_bar"], mixture, "value")]},
        "mixture": [(say["mixture"], {"w": weights, "h": mixture})]
        + describe(swap_query, swap_values),
    }


def glue():
    """Tower's weights and mixture in every state: mc_<state>_weight_<token>, mc_<state>_mixture_<axis>."""
    values = {}
    for name, swap_query, swap_values in STATES:
        _, _, _, weights, mixture = head(swap_query, swap_values)
        for token, weight in zip(TOKENS, weights):
            values["mc_{}_weight_{}".format(name, token.lower())] = float(weight)
        for axis, value in zip(("structure", "paris"), mixture):
            values["mc_{}_mixture_{}".format(name, axis)] = float(value)
    return values


def explorable():
    """Two toggles (swap the query, swap the values), the query, the table of matches, the vectors and the mixture."""
    say = phrases(TEXT)
    return Explorable([
        Toggle("swap_query", say["swap_query"]),
        Toggle("swap_values", say["swap_values"]),
        Text("query", spec=".4f"),
        Table("tokens", spec=".4f"),
        Bars("vectors", spec=".4f"),
        Text("mixture", spec=".4f"),
    ], state, glue)
