"""Attention learns the data, not the world: arbitrary labels for six context words.

Sentences "the <context> bank" with six context words and labels assigned by us, not by
meaning: river water, money finance, vault water, salmon finance, and the synonyms lawyer
water, attorney finance (opposite labels). Model: course.nn.models.SenseClassifier(vocab=8,
width=8): embedding (8, 8), Wq, Wk, Wv (8, 8), classifier (8, 2) + (2,). Training: Adam at
lr 0.05, one example per step, 300 passes over the six (1800 steps). Seed 0, float64.

In a cell:  model = build();  await train(model);  show_table(model)
"""

import numpy as np

from course.nn.models import SenseClassifier
from course.nn.train import train_classifier
from course.numbers import number

SEED = 0
PASSES = 300
LEARNING_RATE = 0.05
CONTEXTS = (("river", 0), ("money", 1), ("vault", 0), ("salmon", 1), ("lawyer", 0), ("attorney", 1))
LABELS = ("water", "finance")
VOCAB = {word: i for i, word in enumerate(["the", "bank"] + [word for word, _ in CONTEXTS])}
DATA = tuple((("the", word, "bank"), label) for word, label in CONTEXTS)
CONTEXT_POSITION = 1  # where the context word sits in "the <context> bank"


def build(seed=SEED):
    """The untrained classifier, seeded."""
    return SenseClassifier(vocab=len(VOCAB), width=8, classes=2, seed=seed, dtype=np.float64)


async def train(model, passes=PASSES, lr=LEARNING_RATE, report=True):
    """Adam, one example per step, `passes` passes over the six sentences; returns train_steps' record."""
    return await train_classifier(model, DATA, VOCAB, passes=passes, lr=lr, report=report)


def rows(model):
    """Per context word: its assigned label, the prediction, and bank's attention to the context word."""
    found = []
    for words, label in DATA:
        logits, _ = model.forward(np.array([VOCAB[word] for word in words]))
        found.append({"context": words[CONTEXT_POSITION], "label": label, "prediction": int(logits.argmax()),
                      "attention": float(model.map[-1, CONTEXT_POSITION])})
    return found


def show_table(model, words=None, labels=LABELS, header=("context", "label", "prediction", "bank → context")):
    """Print the table: context, assigned label, prediction, attention from bank to the context (2 decimals, in the
    lesson's digits).

    `words` maps each context word to the name shown (for the lesson's language); `labels` names the classes.
    """
    words = words or {}
    table = [header] + [(words.get(row["context"], row["context"]), labels[row["label"]], labels[row["prediction"]],
                         number(row["attention"], ".2f")) for row in rows(model)]
    widths = [max(len(line[column]) for line in table) for column in range(len(header))]
    for line in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())
