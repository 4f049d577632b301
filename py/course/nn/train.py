"""Data, accuracy and training loops, reporting progress as they go.

train_sequences and train_steps are coroutines (`await train_sequences(...)` in a cell):
they yield to the event loop as they go, so in the browser the page stays live, progress
is drawn, and a Stop ends training between steps with the model kept as it is.
train_steps runs any step function that way (experiments in lessons train with it).
Numbers they print or report are written in the lesson's language (course.numbers).
"""

import asyncio
import math
import time

import numpy as np

from course import control, runner
from course.numbers import number

from .layers import cross_entropy
from .optim import Adam, Flat

YIELD_EVERY = 4  # steps between yields to the event loop
REPORT_SECONDS = 0.25
YIELD_SECONDS = 0.1  # small steps yield by the clock: a yield costs the browser about 6 ms (measured)


def digit_sequences(count, length=8, digits=10, seed=0):
    """`count` random digit sequences, (count, length) ints, from a seeded generator."""
    return np.random.default_rng(seed).integers(0, digits, size=(count, length))


def accuracies(model, X, Y, batch=500):
    """(fraction of digits right, fraction of whole sequences right) on X -> Y."""
    right_digits, right_sequences = 0, 0
    for start in range(0, len(X), batch):
        predicted = model.predict(X[start:start + batch])
        matches = predicted == Y[start:start + batch]
        right_digits += int(matches.sum())
        right_sequences += int(matches.all(axis=1).sum())
    return right_digits / Y.size, right_sequences / len(Y)


async def train_sequences(model, X, Y, X_val, Y_val, epochs=6, batch=64, lr=3e-3, warmup=50, seed=0,
                          on_epoch=None, report=True, label="epoch"):
    """Train with Adam on mini-batches (learning rate warmed up, then cosine-decayed).

    After each epoch, prints "loss, digit accuracy, sequence accuracy" on held-out data
    and calls on_epoch(record). Returns the list of per-epoch records; the last one has
    "stopped": True if the learner stopped training early.
    """
    rng = np.random.default_rng(seed)
    params = model.parameters()
    optimizer = Adam(params, lr=lr)
    steps_per_epoch = math.ceil(len(X) / batch)
    total = epochs * steps_per_epoch
    history, step, last_report = [], 0, 0.0
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(X))
        losses = []
        for start in range(0, len(X), batch):
            rows = order[start:start + batch]
            logits, cache = model.forward(X[rows])
            loss, dlogits = cross_entropy(logits, Y[rows])
            optimizer.lr = _schedule(step, total, lr, warmup)
            optimizer.step(model.backward(dlogits.astype(logits.dtype), cache))
            losses.append(loss)
            step += 1
            if step % YIELD_EVERY == 0:
                await asyncio.sleep(0)
                if control.stop_requested():
                    return _finish(history, epoch, epochs, step, total, losses, model, X_val, Y_val, report,
                                   label, stopped=True)
                if report and time.monotonic() - last_report > REPORT_SECONDS:
                    last_report = time.monotonic()
                    runner.progress(_progress(epoch, epochs, step, total, float(np.mean(losses))))
        record = _record(epoch, losses, model, X_val, Y_val)
        history.append(record)
        if report:
            print("{} {}: loss {}   digits {}   sequences {}".format(
                label.capitalize(), epoch, number(record["loss"], ".3f"), number(record["digits"], ".1%"),
                number(record["sequences"], ".1%")))
        if on_epoch is not None:
            on_epoch(record)
    if report:
        runner.progress(_progress(epochs, epochs, total, total, history[-1]["loss"], history[-1]))
    return history


def _progress(epoch, epochs, step, steps, loss, record=None, stopped=False):
    """A progress item with its numbers already written as text (the page does no rounding of its own)."""
    item = {"epoch": epoch, "epochs": epochs, "step": step, "steps": steps, "loss": number(loss, ".3f")}
    if record is not None:
        item["digits"] = number(100 * record["digits"], ".1f")
        item["sequences"] = number(100 * record["sequences"], ".1f")
    if stopped:
        item["stopped"] = True
    return item


def _schedule(step, total, lr, warmup):
    if step < warmup:
        return lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return lr * 0.5 * (1 + math.cos(math.pi * progress))


def _record(epoch, losses, model, X_val, Y_val):
    digits, sequences = accuracies(model, X_val, Y_val)
    return {"epoch": epoch, "loss": float(np.mean(losses)), "digits": digits, "sequences": sequences}


def _finish(history, epoch, epochs, step, total, losses, model, X_val, Y_val, report, label, stopped):
    """Close a training the learner stopped: evaluate the model as it is and say so."""
    record = dict(_record(epoch, losses, model, X_val, Y_val), stopped=stopped, step=step)
    history.append(record)
    if report:
        runner.progress(_progress(epoch, epochs, step, total, record["loss"], record, stopped=True))
    return history


def classifier_step(model, optimizer, words, label, vocab):
    """One optimizer step of a one-sentence classifier on one (words, label) example; returns its loss."""
    logits, cache = model.forward(np.array([vocab[word] for word in words]))
    loss, dlogits = cross_entropy(logits[None, :], np.array([label]))
    optimizer.step(model.backward(dlogits[0].astype(logits.dtype), cache))
    return loss


def fit_classifier(model, data, vocab, steps=300, lr=0.05):
    """Adam, one example at a time, `steps` passes over `data` ((words, label) pairs); returns the last losses."""
    optimizer = Adam(model.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        losses = [classifier_step(model, optimizer, words, label, vocab) for words, label in data]
    return losses


async def train_classifier(model, data, vocab, passes=300, lr=0.05, report=True):
    """fit_classifier as a training the page can watch and stop (see train_steps); returns its record."""
    optimizer = Flat(model, lambda params: Adam(params, lr=lr))

    def step(i):
        words, label = data[i % len(data)]
        return classifier_step(model, optimizer, words, label, vocab)

    return await train_steps(step, passes * len(data), per_epoch=len(data), report=report)


async def train_steps(step, steps, per_epoch=1, report=True):
    """Run step(i) -> loss for i = 0 … steps-1 as a training the page can watch and stop.

    Every YIELD_SECONDS it yields to the event loop (progress is drawn, a Stop is heard);
    after every step it checks for a Stop, so training ends between two steps with the
    parameters as they are. An epoch is `per_epoch` steps. Returns {"losses": mean loss of
    each epoch begun, "step_losses": every step's loss, "steps": steps done, "stopped": whether the
    learner stopped it}.
    """
    epochs = math.ceil(steps / per_epoch)
    losses, epoch_losses, step_losses = [], [], []
    last_yield = last_report = time.monotonic()
    for i in range(steps):
        step_losses.append(float(step(i)))
        epoch_losses.append(step_losses[-1])
        if len(epoch_losses) == per_epoch or i == steps - 1:
            losses.append(float(np.mean(epoch_losses)))
            epoch_losses = []
        now = time.monotonic()
        if now - last_yield > YIELD_SECONDS:
            await asyncio.sleep(0)
            last_yield = now
        if control.stop_requested() and i < steps - 1:
            if epoch_losses:
                losses.append(float(np.mean(epoch_losses)))
            if report:
                runner.progress(_progress(len(losses), epochs, i + 1, steps, losses[-1], stopped=True))
            return {"losses": losses, "step_losses": step_losses, "steps": i + 1, "stopped": True}
        if report and now - last_report > REPORT_SECONDS:
            last_report = now
            runner.progress(_progress(i // per_epoch + 1, epochs, i + 1, steps, float(_running_loss(losses, epoch_losses))))
    if report:
        runner.progress(_progress(epochs, epochs, steps, steps, losses[-1]))
    return {"losses": losses, "step_losses": step_losses, "steps": steps, "stopped": False}


def _running_loss(losses, epoch_losses):
    """The loss to show while an epoch runs: its mean so far, or the last finished epoch's."""
    return np.mean(epoch_losses) if epoch_losses else losses[-1]
