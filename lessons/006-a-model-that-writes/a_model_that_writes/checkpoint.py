"""The shipped checkpoint: its recipe, the training that makes it from its seed, and loading it.

The checkpoint is course.nn.gpt.save's .npz, written into checkpoint_data.py as base64 text (the build ships a
lesson's package as Python files only), with the held-out loss it reached. Remake it, after changing the recipe or
the toolkit, from the lesson's folder:

    PYTHONPATH=../../py OPENBLAS_NUM_THREADS=1 ../../.venv/bin/python -m a_model_that_writes.checkpoint

The lesson's tests train it again from RECIPE and compare it with the shipped one, and a cell of the page checks
that the shipped weights give the recorded held-out loss.
"""

import base64
import io
from pathlib import Path

from course.nn.gpt import GPT, GPTTraining, load, mean_loss, save, windows

from .text import Vocabulary, names, split, stream

RECIPE = {"length": 16, "width": 32, "heads": 4, "blocks": 2, "model_seed": 0, "batch": 32, "lr": 3e-3,
          "batch_seed": 0, "steps": 750}


def data(length=RECIPE["length"]):
    """(vocabulary, training windows X, Y, held-out windows Xv, Yv) of the corpus, as the checkpoint was trained."""
    all_names = names()
    training, held_out = split(all_names)
    vocabulary = Vocabulary(all_names)
    X, Y = windows(vocabulary.encode(stream(training)), length)
    Xv, Yv = windows(vocabulary.encode(stream(held_out)), length)
    return vocabulary, X, Y, Xv, Yv


def fresh_model(vocab_size, recipe=RECIPE):
    """The untrained GPT of the recipe, from its seed."""
    return GPT(vocab_size, length=recipe["length"], width=recipe["width"], heads=recipe["heads"],
               blocks=recipe["blocks"], seed=recipe["model_seed"])


def train(recipe=RECIPE):
    """(model, training) after recipe["steps"] steps from the recipe's seeds, run synchronously."""
    vocabulary, X, Y, _, _ = data(recipe["length"])
    model = fresh_model(len(vocabulary), recipe)
    training = GPTTraining(model, X, Y, batch=recipe["batch"], lr=recipe["lr"], seed=recipe["batch_seed"])
    for _ in range(recipe["steps"]):
        training.step()
    return model, training


def to_text(model):
    """The model as the base64 text of its .npz."""
    file = io.BytesIO()
    save(model, file)
    return base64.b64encode(file.getvalue()).decode("ascii")


def load_shipped():
    """The shipped checkpoint as a GPT (float32)."""
    from .checkpoint_data import NPZ_BASE64
    return load(io.BytesIO(base64.b64decode(NPZ_BASE64)))


def write_data_module(path=None):
    """Train from the recipe and write checkpoint_data.py (or `path`): the weights and the held-out loss they reach."""
    path = path or Path(__file__).with_name("checkpoint_data.py")
    model, _ = train()
    _, _, _, Xv, Yv = data()
    text = to_text(model)
    lines = [text[i:i + 100] for i in range(0, len(text), 100)]
    Path(path).write_text(
        '"""Written by checkpoint.write_data_module from checkpoint.RECIPE: do not edit by hand."""\n\n'
        "RECIPE = {!r}\nHELD_OUT_LOSS = {!r}\nNPZ_BASE64 = (\n{})\n".format(
            dict(sorted(RECIPE.items())), mean_loss(model, Xv, Yv),
            "".join('    "{}"\n'.format(line) for line in lines)), encoding="utf-8")
    return path


if __name__ == "__main__":
    print(write_data_module())
