"""Causal masking: the attention map of «by the river bank» and «bank of the river», bidirectional or causal.

Lesson 003's hand-made vectors with identity projections (d_k = 4): scores X Xᵀ / √4;
«by» and «of», like «the», carry only the generic coordinate.
The causal mask sets the scores above the diagonal to −∞ before the softmax, so
exp(−∞) = 0 gives future positions no weight and each row renormalises over the
positions up to its own. In «by the river bank» bank's row is the same either way; in
«bank of the river» the causal bank can read only itself, and each later row spreads
its weight over the positions before it.
"""

import numpy as np

from course.attention import softmax
from course.explorables.engine import Choice, Explorable, Heatmap, Table, Text, Toggle, Value

from ..language import phrases
from .query_match import EMBEDDINGS

WORDS = dict(EMBEDDINGS, by=EMBEDDINGS["the"], of=EMBEDDINGS["the"])
SENTENCES = (("by the river bank", ("by", "the", "river", "bank")),
             ("bank of the river", ("bank", "of", "the", "river")))
TEXT = {  # everything the figure writes, per edition of the lesson
    "uk": {"kinds": ("двонапрямлена", "причинна"), "title": "Ваги уваги, «{}», {}",
           "caption": "Оцінки q · k / √4 перед softmax", "bank": "Рядок bank: ", "total": "Кожен рядок у сумі дає {total}.",
           "sentence": "Речення", "mask": "Причинна маска (−∞ над діагоналлю)"},
    "en": {"kinds": ("bidirectional", "causal"), "title": "Attention weights, “{}”, {}",
           "caption": "Scores q · k / √4 before the softmax", "bank": "The row of bank: ",
           "total": "Every row sums to {total}.", "sentence": "Sentence", "mask": "Causal mask (−∞ above the diagonal)"},
    "es": {"kinds": ("bidireccional", "causal"), "title": "Pesos de atención, «{}», {}",
           "caption": "Puntuaciones q · k / √4 antes del softmax", "bank": "La fila de bank: ",
           "total": "Cada fila suma {total}.", "sentence": "Frase", "mask": "Máscara causal (−∞ sobre la diagonal)"},
}


def weights(tokens, causal):
    """Scores /√d_k (−∞ above the diagonal when causal) and their softmax; (n, n) each."""
    X = np.stack([WORDS[token] for token in tokens])  # (n, 4)
    scores = X @ X.T / np.sqrt(X.shape[-1])  # (n, n)
    if causal:
        future = np.triu(np.ones(scores.shape, dtype=bool), k=1)
        scores = np.where(future, -np.inf, scores)
    return scores, softmax(scores)


def written(score):
    """A score for the table: −∞ where the mask hid the position."""
    return "−∞" if np.isneginf(score) else Value(score, ".3f")


def state(sentence, causal):
    """What the figure draws for one sentence, with or without the mask."""
    tokens = dict(SENTENCES)[sentence]
    scores, A = weights(tokens, causal)
    bank = tokens.index("bank")
    say = phrases(TEXT)
    return {
        "map": {"values": A, "rows": list(tokens), "cols": list(tokens),
                "title": say["title"].format(sentence, say["kinds"][int(causal)])},
        "scores": {"caption": say["caption"],
                   "columns": [""] + list(tokens),
                   "rows": [[token] + [written(score) for score in scores[i]] for i, token in enumerate(tokens)]},
        "bank": [(say["bank"] + ", ".join("{{t{}}} {{w{}}}".format(j, j) for j in range(len(tokens))),
                  dict([("t{}".format(j), token) for j, token in enumerate(tokens)]
                       + [("w{}".format(j), Value(A[bank, j], ".2f")) for j in range(len(tokens))])),
                 (say["total"], {"total": Value(A.sum(axis=1).min(), ".2f")})],
    }


def glue():
    """Every weight of each sentence, both ways: cm_<sentence>_<mode>_<reading token>_<source token>."""
    values = {}
    for sentence, tokens in SENTENCES:
        for causal, mode in ((False, "bidirectional"), (True, "causal")):
            A = weights(tokens, causal)[1]  # (n, n)
            for i, reader in enumerate(tokens):
                for j, source in enumerate(tokens):
                    values["cm_{}_{}_{}_{}".format(sentence.replace(" ", "_"), mode, reader, source)] = float(A[i, j])
    return values


def explorable():
    """Sentence buttons, the causal-mask toggle, the heatmap, the scores before the softmax and bank's row."""
    say = phrases(TEXT)
    return Explorable([
        Choice("sentence", say["sentence"], [(name, name) for name, _ in SENTENCES]),
        Toggle("causal", say["mask"]),
        Heatmap("map"),
        Table("scores"),
        Text("bank"),
    ], state, glue)
