"""The runnable 8-dimensional one-head sense classifier, trained in the page with progress and Stop.

Model: course.nn.models.SenseClassifier(vocab=4, width=8): embedding (4, 8), Wq, Wk, Wv (8, 8)
without bias, classifier (8, 2) + (2,) read at the last position: 4·8 + 3·8·8 + (8·2 + 2) = 242
parameters. Data: the four sentences of SENSE_DATA (label 0 water, 1 finance).
Training: Adam at lr 0.05, one example per step, 300 passes over the four (1200 steps).
Seed 0 (default_rng), float64.

In a cell:  model = build();  await train(model);  show_predictions(model);  show_parameters(model)
            show_changes(build(), model): what training changed (the parameters, every group)
"""

import numpy as np

from course.nn.models import SenseClassifier
from course.nn.train import train_classifier
from course.numbers import number

from .language import phrases

SENSE_VOCAB = {"the": 0, "river": 1, "money": 2, "bank": 3}
SENSE_DATA = ((("the", "river", "bank"), 0), (("the", "money", "bank"), 1), (("river", "bank"), 0),
              (("money", "bank"), 1))  # label 0: water, 1: finance

SEED = 0
PASSES = 300
LEARNING_RATE = 0.05
TEXT = {"uk": {"largest_change": "найбільша зміна"}, "en": {"largest_change": "largest change"},
        "es": {"largest_change": "mayor cambio"}}  # per edition


def build(seed=SEED, width=8):
    """The untrained classifier, seeded."""
    return SenseClassifier(vocab=len(SENSE_VOCAB), width=width, classes=2, seed=seed, dtype=np.float64)


async def train(model, passes=PASSES, lr=LEARNING_RATE, report=True):
    """Adam, one example per step, `passes` passes over the four sentences; returns train_steps' record."""
    return await train_classifier(model, SENSE_DATA, SENSE_VOCAB, passes=passes, lr=lr, report=report)


def predictions(model, data=SENSE_DATA):
    """Per sentence: its words, the predicted label, and bank's attention row {word: weight}."""
    found = []
    for words, label in data:
        logits, _ = model.forward(np.array([SENSE_VOCAB[word] for word in words]))
        row = model.map[-1]  # (T,): what the last position (bank) reads
        found.append({"words": list(words), "label": label, "prediction": int(logits.argmax()),
                      "attention": {word: float(row[i]) for i, word in enumerate(words)}})
    return found


def show_predictions(model, data=SENSE_DATA[:2]):
    """Print each sentence's prediction and its attention row rounded to 2 decimals, as the seed's script does."""
    for found in predictions(model, data):
        print(found["words"], "prediction:", found["prediction"])
        print({word: round(weight, 2) + 0.0 for word, weight in found["attention"].items()})


def parameter_groups(model):
    """(name, shape, size) of every parameter group, read from the model itself."""
    return [(name, value.shape, int(value.size)) for name, value in model.parameters().items()]


def show_parameters(model):
    """Print the parameter groups one per line, then their sizes summed."""
    groups = parameter_groups(model)
    for name, shape, size in groups:
        print("{:<14} {:<8} {:>4}".format(name, "×".join(str(n) for n in shape), size))
    print("{} = {}".format(" + ".join(str(size) for _, _, size in groups), model.count()))


def show_changes(before, after):
    """Print, per parameter group, the largest change from `before` to `after` (e.g. build() and the trained model)."""
    old = before.parameters()
    said = phrases(TEXT)["largest_change"]
    for name, value in after.parameters().items():
        print("{:<14} {} {}".format(name, said, number(float(np.abs(value - old[name]).max()), ".3f")))
