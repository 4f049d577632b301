"""Four hand-written rules, one per head, against one head with the four rules summed, and one with rules 1 and 2.

The Spanish page draws the sentence «el ratón pequeño que persiguen los gatos duerme»,
the English page "this little mouse that those cats chase sleeps", the Ukrainian page
«ця маленька миша, яку ганяють ті коти, спить» (the language is
course.numbers.current_language() when explorable() is called: the page's). Each word
is a vector of hand-written features; each rule is one column of W^Q and the same
column of W^K, so rule c scores the pair (t, u) with q_tc · k_uc:

    rule 1, "is it a noun":   verbs ask, nouns answer
    rule 2, number agreement: the asker's number times the answerer's number
    rule 3, determiners:      nouns ask, determiners answer
    rule 4, modifiers:        nouns ask, adjectives and relative words answer

Heads 1-4 keep one column each (d_k = 1, divided by √1); the single-head layer
keeps all four (d_k = 4) and divides the summed scores by √4 before one softmax;
the sixth map is one head holding rules 1 and 2 (d_k = 2, divided by √2), the two
that the subject of a verb must meet together.
Maps have one row per asking word and one column per answering word. The figure shows
one map at a time, outlines the row of one asking word, and says where that row pulls.
"""

import functools

import numpy as np

from course.attention import softmax
from course.explorables.engine import Choice, Explorable, Heatmap, Radio, Text, Value
from course.numbers import current_language

WORDS = ("el", "ratón", "pequeño", "que", "persiguen", "los", "gatos", "duerme")
FEATURES = ("sustantivo", "verbo", "número", "determinante", "modificador")
# One row per word: noun, verb, number (+ singular, − plural; nouns carry it more weakly
# than their determiner, adjective or verb), determiner, modifier.
X = np.array([
    [0, 0, 1.0, 1, 0],   # el
    [1, 0, 0.5, 0, 0],   # ratón
    [0, 0, 1.0, 0, 1],   # pequeño
    [0, 0, 0.0, 0, 1],   # que
    [0, 1, -1.0, 0, 0],  # persiguen
    [0, 0, -1.0, 1, 0],  # los
    [1, 0, -0.5, 0, 0],  # gatos
    [0, 1, 1.0, 0, 0],   # duerme
])  # (T, 5)
# The English page's sentence, with the same features. English marks number on nouns, verbs and
# demonstratives (this, those) but not on adjectives, so "little" carries none where «pequeño» does.
WORDS_EN = ("this", "little", "mouse", "that", "those", "cats", "chase", "sleeps")
X_EN = np.array([
    [0, 0, 1.0, 1, 0],   # this
    [0, 0, 0.0, 0, 1],   # little
    [1, 0, 0.5, 0, 0],   # mouse
    [0, 0, 0.0, 0, 1],   # that
    [0, 0, -1.0, 1, 0],  # those
    [1, 0, -0.5, 0, 0],  # cats
    [0, 1, -1.0, 0, 0],  # chase
    [0, 1, 1.0, 0, 0],   # sleeps
])  # (T, 5)
# The Ukrainian page's sentence. Ukrainian marks number on the adjective, as Spanish does, and on the relative
# pronoun as well: «яку» is singular because it agrees with «миша», where «que» and "that" mark nothing.
WORDS_UK = ("ця", "маленька", "миша", "яку", "ганяють", "ті", "коти", "спить")
X_UK = np.array([
    [0, 0, 1.0, 1, 0],   # ця
    [0, 0, 1.0, 0, 1],   # маленька
    [1, 0, 0.5, 0, 0],   # миша
    [0, 0, 1.0, 0, 1],   # яку
    [0, 1, -1.0, 0, 0],  # ганяють
    [0, 0, -1.0, 1, 0],  # ті
    [1, 0, -0.5, 0, 0],  # коти
    [0, 1, 1.0, 0, 0],   # спить
])  # (T, 5)
SENTENCES = {"es": (WORDS, X), "en": (WORDS_EN, X_EN), "uk": (WORDS_UK, X_UK)}
# The words the prose quotes, by the part they play, in each page's sentence.
ROLES = {
    "es": {"singular_noun": "ratón", "singular_determiner": "el", "plural_noun": "gatos", "plural_determiner": "los",
           "plural_verb": "persiguen", "singular_verb": "duerme"},
    "en": {"singular_noun": "mouse", "singular_determiner": "this", "plural_noun": "cats",
           "plural_determiner": "those", "plural_verb": "chase", "singular_verb": "sleeps"},
    "uk": {"singular_noun": "миша", "singular_determiner": "ця", "plural_noun": "коти", "plural_determiner": "ті",
           "plural_verb": "ганяють", "singular_verb": "спить"},
}
STRENGTH = 3.0  # how sharply a rule that applies separates the words it likes
# Column c of W_Q and of W_K is rule c: which feature asks (W_Q) and which answers (W_K).
W_Q = STRENGTH * np.array([
    # rule: 1  2  3  4
    [0, 0, 1, 1],  # sustantivo: nouns ask for determiners (3) and modifiers (4)
    [1, 0, 0, 0],  # verbo: verbs ask for nouns (1)
    [0, 1, 0, 0],  # número: every word asks for its own number (2)
    [0, 0, 0, 0],  # determinante
    [0, 0, 0, 0],  # modificador
], dtype=float)  # (5, 4)
W_K = np.array([
    [1, 0, 0, 0],  # sustantivo answers rule 1
    [0, 0, 0, 0],  # verbo
    [0, 1, 0, 0],  # número answers rule 2
    [0, 0, 1, 0],  # determinante answers rule 3
    [0, 0, 0, 1],  # modificador answers rule 4
], dtype=float)  # (5, 4)
HEADS = ("Cabeza 1 · ¿Es un sustantivo?", "Cabeza 2 · Concordancia de número",
         "Cabeza 3 · Sustantivo → determinante", "Cabeza 4 · Sustantivo → modificador")
SUMMED = "Una sola cabeza · las cuatro reglas sumadas"
PAIRED = "Cabeza 1+2 · sustantivo y concordancia juntas"
LABELS = HEADS + (SUMMED, PAIRED)
PAIR = [0, 1]  # the columns of the sixth map's head: rules 1 and 2
WORDING = {  # every word the figure writes, per page language
    "es": {"labels": LABELS, "title": "Hacia dónde tira la fila de «{}», mapa a mapa:",
           "flat": "{map}: no dice nada (fila plana, {weight} para cada palabra)",
           "tie": "{map}: {words}, {weight} cada uno", "one": "{map}: {words}, {weight}", "and": " y ",
           "map": "Mapa que se muestra", "row": "Fila (la palabra que pregunta)"},
    "en": {"labels": ("Head 1 · Is it a noun?", "Head 2 · Number agreement", "Head 3 · Noun → determiner",
                      "Head 4 · Noun → modifier", "One head · the four rules summed",
                      "Head 1+2 · noun and agreement together"),
           "title": "Where the row of \u201c{}\u201d pulls, map by map:",
           "flat": "{map}: says nothing (flat row, {weight} for every word)",
           "tie": "{map}: {words}, {weight} each", "one": "{map}: {words}, {weight}", "and": " and ",
           "map": "Map shown", "row": "Row (the asking word)"},
    "uk": {"labels": ("Голова 1 · Це іменник?", "Голова 2 · Узгодження в числі", "Голова 3 · Іменник → вказівний займенник",
                      "Голова 4 · Іменник → означення", "Одна голова · чотири правила разом",
                      "Голова 1+2 · іменник і узгодження разом"),
           "title": "Куди тягне рядок «{}», мапа за мапою:",
           "flat": "{map}: нічого не каже (рядок рівний, {weight} кожному слову)",
           "tie": "{map}: {words}, по {weight}", "one": "{map}: {words}, {weight}", "and": " і ",
           "map": "Мапа на рисунку", "row": "Рядок (слово, що питає)"},
}


def maps(language="es"):
    """The six maps of `language`'s sentence: heads 1-4 with one rule each, the single head, the head with rules 1 and 2; (6, T, T)."""
    Q, K = SENTENCES[language][1] @ W_Q, SENTENCES[language][1] @ W_K  # (T, 4) each
    heads = [softmax(np.outer(Q[:, c], K[:, c]) / np.sqrt(1)) for c in range(4)]
    summed = softmax(Q @ K.T / np.sqrt(4))
    paired = softmax(Q[:, PAIR] @ K[:, PAIR].T / np.sqrt(len(PAIR)))
    return np.stack(heads + [summed, paired])


def pulled(row, words=WORDS):
    """For one row of one map: the words it pulls toward most (ties kept), or None if the row is flat."""
    if np.ptp(row) < 1e-9:
        return None
    return [words[u] for u in np.flatnonzero(np.isclose(row, row.max(), atol=1e-9))]


def panel(weights, row, language="es"):
    """One line per map: the word(s) the row pulls toward and their weight, or that the row is flat."""
    words_of, say = SENTENCES[language][0], WORDING[language]
    lines = [("title", say["title"].format(words_of[row]))]
    for label, weight_map in zip(say["labels"], weights):
        words, weight = pulled(weight_map[row], words_of), Value(weight_map[row].max(), ".2f")
        if words is None:
            lines.append((say["flat"], {"map": label, "weight": weight}))
        elif len(words) > 1:
            lines.append((say["tie"], {"map": label, "words": ", ".join(words[:-1]) + say["and"] + words[-1],
                                       "weight": weight}))
        else:
            lines.append((say["one"], {"map": label, "words": words[0], "weight": weight}))
    return lines


def state(map, row, language="es"):
    """What the figure draws for one map and one asking word."""
    weights = maps(language)
    return {
        "map": {"values": weights[map], "rows": SENTENCES[language][0], "cols": SENTENCES[language][0],
                "title": WORDING[language]["labels"][map]},
        "panel": panel(weights, row, language),
    }


def glue(language="es"):
    """The values the prose quotes, from the same maps."""
    weights = maps(language)
    head_1, head_2, head_3, summed, paired = weights[0], weights[1], weights[2], weights[4], weights[5]
    t = SENTENCES[language][0].index
    role = {name: t(word) for name, word in ROLES[language].items()}
    mouse, cats, sleeps, chase = role["singular_noun"], role["plural_noun"], role["singular_verb"], role["plural_verb"]
    return {
        "rh_gatos_h3": float(head_3[cats, role["plural_determiner"]]),
        "rh_duerme_par_raton": float(paired[sleeps, mouse]),
        "rh_persiguen_par_gatos": float(paired[chase, cats]),
        "rh_persiguen_par_raton": float(paired[chase, mouse]),
        "rh_duerme_h1": float(head_1[sleeps, mouse]),
        "rh_duerme_h2": float(head_2[sleeps, role["singular_determiner"]]),
        "rh_duerme_suma": float(summed[sleeps, mouse]),
        "rh_persiguen_suma_gatos": float(summed[chase, cats]),
        "rh_persiguen_suma_raton": float(summed[chase, mouse]),
        "rh_persiguen_h1_raton": float(head_1[chase, mouse]),
    }


def explorable():
    """Map buttons, the chosen heatmap with the asking row outlined, the row picker and the panel, in the page's language."""
    language = current_language()
    words, say = SENTENCES[language][0], WORDING[language]
    return Explorable([
        Choice("map", say["map"], list(enumerate(say["labels"]))),
        Heatmap("map", highlight="row"),
        Radio("row", say["row"], list(enumerate(words)), value=words.index(ROLES[language]["singular_verb"])),
        Text("panel"),
    ], functools.partial(state, language=language), functools.partial(glue, language=language))
