"""Four hand-written rules, one per head, against one head with the four rules summed, and one with rules 1 and 2.

The sentence «el ratón pequeño que persiguen los gatos duerme». Each word is a
vector of hand-written features; each rule is one column of W^Q and the same
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

import numpy as np

from course.attention import softmax
from course.explorables.engine import Choice, Explorable, Heatmap, Radio, Text, Value

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


def maps():
    """The six maps: heads 1-4 with one rule each, the single head with all four, the head with rules 1 and 2; (6, T, T)."""
    Q, K = X @ W_Q, X @ W_K  # (T, 4) each
    heads = [softmax(np.outer(Q[:, c], K[:, c]) / np.sqrt(1)) for c in range(4)]
    summed = softmax(Q @ K.T / np.sqrt(4))
    paired = softmax(Q[:, PAIR] @ K[:, PAIR].T / np.sqrt(len(PAIR)))
    return np.stack(heads + [summed, paired])


def pulled(row):
    """For one row of one map: the words it pulls toward most (ties kept), or None if the row is flat."""
    if np.ptp(row) < 1e-9:
        return None
    return [WORDS[u] for u in np.flatnonzero(np.isclose(row, row.max(), atol=1e-9))]


def panel(weights, row):
    """One line per map: the word(s) the row pulls toward and their weight, or that the row is flat."""
    lines = [("title", "Hacia dónde tira la fila de «{}», mapa a mapa:".format(WORDS[row]))]
    for label, weight_map in zip(LABELS, weights):
        words, weight = pulled(weight_map[row]), Value(weight_map[row].max(), ".2f")
        if words is None:
            lines.append(("{map}: no dice nada (fila plana, {weight} para cada palabra)",
                          {"map": label, "weight": weight}))
        elif len(words) > 1:
            lines.append(("{map}: {words}, {weight} cada uno",
                          {"map": label, "words": ", ".join(words[:-1]) + " y " + words[-1], "weight": weight}))
        else:
            lines.append(("{map}: {words}, {weight}", {"map": label, "words": words[0], "weight": weight}))
    return lines


def state(map, row):
    """What the figure draws for one map and one asking word."""
    weights = maps()
    return {
        "map": {"values": weights[map], "rows": WORDS, "cols": WORDS, "title": LABELS[map]},
        "panel": panel(weights, row),
    }


def glue():
    """The values the prose quotes, from the same maps."""
    weights = maps()
    head_1, head_2, head_3, summed, paired = weights[0], weights[1], weights[2], weights[4], weights[5]
    t = WORDS.index
    return {
        "rh_gatos_h3": float(head_3[t("gatos"), t("los")]),
        "rh_duerme_par_raton": float(paired[t("duerme"), t("ratón")]),
        "rh_persiguen_par_gatos": float(paired[t("persiguen"), t("gatos")]),
        "rh_persiguen_par_raton": float(paired[t("persiguen"), t("ratón")]),
        "rh_duerme_h1": float(head_1[t("duerme"), t("ratón")]),
        "rh_duerme_h2": float(head_2[t("duerme"), t("el")]),
        "rh_duerme_suma": float(summed[t("duerme"), t("ratón")]),
        "rh_persiguen_suma_gatos": float(summed[t("persiguen"), t("gatos")]),
        "rh_persiguen_suma_raton": float(summed[t("persiguen"), t("ratón")]),
        "rh_persiguen_h1_raton": float(head_1[t("persiguen"), t("ratón")]),
    }


def explorable():
    """Map buttons, the chosen heatmap with the asking row outlined, the row picker and the panel."""
    return Explorable([
        Choice("map", "Mapa que se muestra", list(enumerate(LABELS))),
        Heatmap("map", highlight="row"),
        Radio("row", "Fila (la palabra que pregunta)", list(enumerate(WORDS)), value=WORDS.index("duerme")),
        Text("panel"),
    ], state, glue)
