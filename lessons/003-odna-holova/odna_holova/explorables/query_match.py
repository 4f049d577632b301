"""«Що може знайти цей запит?»: bank's query from a hand-set W_q, compared with every token's key.

The four hand-made token vectors of lesson 003 (features finance, water, structure,
generic) are projected into a 3-D query/key space whose axes we name finance, water
and structure. W_k is fixed: it keeps the first three features and drops generic.
W_q comes from a preset or from the learner's coefficients. For the receiving token
bank, each token j of the sentence gets the score q_bank · k_j / √3 and bank's weight
softmax over the sentence. Switching sentences keeps bank's query and changes the keys.

Presets: "structure" is the seed's own matrix (bank's structure feature asks along
water, W_q[structure, water] = 3.75); "finance" and "water" read bank's finance (or
water) feature into the same axis, W_q[f, f] = 6; each of those gives |q_bank| = 3.
"against_water" is minus the structure preset: bank's query points away from water,
so bank avoids river. "zero" gives a zero query: every score is 0 and the weights uniform.
Each score is also split into its per-coordinate contributions q_c k_c / √3.
"""

import numpy as np

from course.attention import softmax
from course.explorables.engine import Bars, Choice, Explorable, Matrix, Table, Text, Value

from ..language import phrases

EMBEDDINGS = {
    "the": np.array([0.0, 0.0, 0.0, 1.0]),
    "river": np.array([0.0, 1.0, 0.0, 0.2]),
    "money": np.array([1.0, 0.0, 0.0, 0.2]),
    "bank": np.array([0.5, 0.5, 0.8, 0.2]),
}  # (4,) each
SENTENCES = {"river": ("the", "river", "bank"), "money": ("the", "money", "bank")}
W_K = np.eye(4, 3)  # (4, 3): keeps finance, water, structure; drops generic
PRESETS = {
    "finance": 6.0 * np.outer(np.eye(4)[0], np.eye(3)[0]),
    "water": 6.0 * np.outer(np.eye(4)[1], np.eye(3)[1]),
    "structure": 3.75 * np.outer(np.eye(4)[2], np.eye(3)[1]),
    "against_water": -3.75 * np.outer(np.eye(4)[2], np.eye(3)[1]),
    "zero": np.zeros((4, 3)),
}  # (4, 3) each
TEXT = {  # everything the figure writes, per edition of the lesson
    "uk": {
        "features": ("фінанси", "вода", "структура", "загальне"),  # rows of W_q: the input features
        "axes": ("фінанси", "вода", "структура"),  # columns: the query/key axes
        "presets": ("Фінанси", "Вода", "Структура", "Проти води", "Нульовий запит"),
        "query_title": "1. Запит bank: q_bank = x_bank @ Wq",
        "input": "Вхід bank: {x} (фінанси, вода, структура, загальне)",
        "reads_nothing": "q_bank = {q}: Wq не читає жодної ознаки bank, тож усі оцінки однакові.",
        "all_equal": "Усі ваги bank рівні, {weight}: запит {q} не віддає переваги жодному ключу.",
        "largest": "Найбільша вага bank: {token}, {weight}. Запит bank: {q}.",
        "query_bar": "запит bank", "key_bar": "ключ {}",
        "directions": "2. Напрямки запиту й ключів (кожен вектор поділено на його довжину)",
        "tokens": "3. Спершу збіг: оцінки й ваги bank",
        "token_columns": ["Токен", "Його запит x @ Wq", "Його ключ x @ Wk", "q_bank · ключ / √3", "Вага bank"],
        "contributions": "4. З чого складається кожна оцінка: внесок кожної осі, q_bank,c × k_c / √3",
        "token": "Токен", "total": "Разом: оцінка",
        "preset": "Готовий Wq (що шукає запит bank)", "sentence": "Речення", "matrix": "Змінити коефіцієнти Wq",
    },
    "en": {
        "features": ("finance", "water", "structure", "generic"),
        "axes": ("finance", "water", "structure"),
        "presets": ("Finance", "Water", "Structure", "Against water", "Zero query"),
        "query_title": "1. The query of bank: q_bank = x_bank @ Wq",
        "input": "The input of bank: {x} (finance, water, structure, generic)",
        "reads_nothing": "q_bank = {q}: Wq reads none of bank’s features, so every score is the same.",
        "all_equal": "All of bank’s weights are equal, {weight}: the query {q} prefers no key to another.",
        "largest": "bank gives its largest weight, {weight}, to {token}. The query of bank: {q}.",
        "query_bar": "query of bank", "key_bar": "key of {}",
        "directions": "2. Directions of the query and the keys (each vector divided by its length)",
        "tokens": "3. The match first: bank’s scores and weights",
        "token_columns": ["Token", "Its query x @ Wq", "Its key x @ Wk", "q_bank · key / √3", "bank’s weight"],
        "contributions": "4. What each score is made of: the share of each axis, q_bank,c × k_c / √3",
        "token": "Token", "total": "Total: the score",
        "preset": "Preset Wq (what bank’s query looks for)", "sentence": "Sentence", "matrix": "Edit the entries of Wq",
    },
    "es": {
        "features": ("finanzas", "agua", "estructura", "genérico"),
        "axes": ("finanzas", "agua", "estructura"),
        "presets": ("Finanzas", "Agua", "Estructura", "Contra el agua", "Consulta nula"),
        "query_title": "1. La consulta de bank: q_bank = x_bank @ Wq",
        "input": "La entrada de bank: {x} (finanzas, agua, estructura, genérico)",
        "reads_nothing": "q_bank = {q}: Wq no lee ningún rasgo de bank, así que todas las puntuaciones son iguales.",
        "all_equal": "Todos los pesos de bank son iguales, {weight}: la consulta {q} no prefiere ninguna clave.",
        "largest": "bank da su mayor peso, {weight}, a {token}. La consulta de bank: {q}.",
        "query_bar": "consulta de bank", "key_bar": "clave de {}",
        "directions": "2. Direcciones de la consulta y de las claves (cada vector dividido por su longitud)",
        "tokens": "3. Primero la coincidencia: puntuaciones y pesos de bank",
        "token_columns": ["Token", "Su consulta x @ Wq", "Su clave x @ Wk", "q_bank · clave / √3", "Peso de bank"],
        "contributions": "4. De qué se compone cada puntuación: la parte de cada eje, q_bank,c × k_c / √3",
        "token": "Token", "total": "Total: la puntuación",
        "preset": "Wq predefinida (qué busca la consulta de bank)", "sentence": "Frase",
        "matrix": "Cambiar los coeficientes de Wq",
    },
}


def match(W_q, sentence):
    """Every token's query and key, bank's scores /√3 and bank's weights; shapes (n, 3), (n, 3), (n,), (n,)."""
    X = np.stack([EMBEDDINGS[token] for token in SENTENCES[sentence]])  # (n, 4)
    Q, K = X @ W_q, X @ W_K  # (n, 3) each
    scores = K @ Q[-1] / np.sqrt(K.shape[-1])  # (n,): bank is the last token
    return Q, K, scores, softmax(scores)


def contributions(query, key):
    """What each query/key axis adds to the score q · k / √3; (3,), summing to the score."""
    return query * key / np.sqrt(len(key))


def direction(vector):
    """The vector divided by its length (a zero vector stays zero)."""
    length = np.linalg.norm(vector)
    return vector / length if length > 0 else vector


def query_lines(W_q):
    """How bank's query is made: the input, the rows of W_q it reads, and the result."""
    x = EMBEDDINGS["bank"]
    say = phrases(TEXT)
    terms = [(x[f], W_q[f]) for f in range(len(x)) if x[f] != 0 and np.any(W_q[f] != 0)]
    lines = [("title", say["query_title"]), (say["input"], {"x": x})]
    if terms:
        product = " + ".join("{{c{0}}} × {{r{0}}}".format(i) for i in range(len(terms)))
        values = {}
        for i, (coefficient, row) in enumerate(terms):
            values["c{}".format(i)], values["r{}".format(i)] = coefficient, row
        values["q"] = x @ W_q
        lines.append(("q_bank = " + product + " = {q}", values))
    else:
        lines.append((say["reads_nothing"], {"q": x @ W_q}))
    return lines


def summary(tokens, weights, query):
    """One sentence: who gets bank's largest weight, or that all weights are equal."""
    say = phrases(TEXT)
    if np.allclose(weights, weights[0]):
        return (say["all_equal"], {"weight": Value(weights[0], ".1%"), "q": query})
    return (say["largest"],
            {"token": tokens[int(np.argmax(weights))], "weight": Value(weights.max(), ".1%"), "q": query})


def state(preset, sentence, wq):
    """What the figure draws for one W_q (a preset or the learner's) and one sentence."""
    W_q = np.array(wq)  # (4, 3)
    tokens = SENTENCES[sentence]
    Q, K, scores, weights = match(W_q, sentence)
    query = Q[-1]  # (3,): bank's query, the same in both sentences
    keys = [(token, EMBEDDINGS[token] @ W_K) for token in ("the", "river", "money", "bank")]
    say = phrases(TEXT)
    vectors = [(say["query_bar"], direction(query), "query")] + [
        (say["key_bar"].format(token), direction(key), "key" if token in tokens else "faded") for token, key in keys]
    return {
        "query": query_lines(W_q),
        "directions": {"axes": list(say["axes"]), "vectors": vectors, "title": say["directions"]},
        "tokens": {
            "caption": say["tokens"],
            "columns": list(say["token_columns"]),
            "rows": [[token, Q[j], K[j], Value(scores[j], ".3f"), Value(weights[j], ".1%")]
                     for j, token in enumerate(tokens)],
        },
        "contributions": {
            "caption": say["contributions"],
            "columns": [say["token"]] + list(say["axes"]) + [say["total"]],
            "rows": [[token] + [Value(c, ".3f") for c in contributions(query, K[j])] + [Value(scores[j], ".3f")]
                     for j, token in enumerate(tokens)],
        },
        "summary": [summary(tokens, weights, query)],
    }


def glue():
    """bank's weight on every token, for every preset and sentence: qm_<preset>_<sentence>_<token>."""
    values = {}
    for preset, W_q in PRESETS.items():
        for sentence, tokens in SENTENCES.items():
            for token, weight in zip(tokens, match(W_q, sentence)[3]):
                values["qm_{}_{}_{}".format(preset, sentence, token)] = float(weight)
    return values


def explorable():
    """Preset and sentence buttons, editable W_q, bank's query, the directions, the matches and their parts."""
    say = phrases(TEXT)
    return Explorable([
        Choice("preset", say["preset"], list(zip(PRESETS, say["presets"])), value="structure"),
        Choice("sentence", say["sentence"], [("river", "the river bank"), ("money", "the money bank")]),
        Matrix("wq", say["matrix"], say["features"], say["axes"], PRESETS["structure"].tolist(), follows="preset",
               presets={name: matrix.tolist() for name, matrix in PRESETS.items()}),
        Text("query"),
        Bars("directions"),
        Table("tokens"),
        Table("contributions"),
        Text("summary"),
    ], state, glue)
