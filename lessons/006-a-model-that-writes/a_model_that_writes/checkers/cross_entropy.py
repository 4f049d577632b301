"""Checker for cross_entropy(logits, targets) -> a float: the mean negative log-likelihood, in nats.

    logits (..., V) scores, targets (...) integer ids; loss = mean over every position of
    logsumexp(logits[..., :]) - logits[..., target], with the largest logit subtracted before exp.

The cases mix shapes (T, V), (B, T, V) and a single position (V,), and one case has logits in the hundreds,
where exp overflows unless the largest logit is subtracted first. When the value differs, the usual mistakes are
rebuilt and the one that matches is named in one sentence.
"""

import numpy as np

from course.checkers.common import fail
from course.numbers import current_language, number

from .shared import call, messages, passed, phrasebook

FUNCTION = "cross_entropy"
SIGNATURE = "logits, targets"
CASES = (  # (leading shape, V, logit scale, seed)
    ((6,), 27, 2.0, 1),
    ((2, 5), 27, 3.0, 2),
    ((), 7, 1.0, 3),  # one position: logits (V,), a target of shape ()
    ((3, 4), 9, 400.0, 4),  # logits in the hundreds: exp overflows without the shift
    ((2, 2, 3), 5, 1.5, 5),  # more than two leading axes
    ((1, 16), 27, 0.5, 6),  # one window of 16 positions, as the model sees them
)
TOLERANCE = 1e-9
WORDS = {
    "en": {
        "case": "logits of shape {shape} (scale {scale})",
        "not_number": "For {case} one number was expected, the mean loss, but your function returned {value}; end "
                      "with a mean over every position and return it as float(...).",
        "not_finite": "For {case} the loss came out {value}; {hint}.",
        "differs": "For {case} the loss is {got}, not {expected}; {hint}.",
        "generic": "the loss is the mean over positions of log-sum-exp of the row minus the logit of the target",
        "shift": "exp overflowed: subtract each row's largest logit before np.exp, m + log(sum(exp(logits - m)))",
        "probabilities": "you took the log of the logits themselves, as if they were probabilities; logits are "
                         "scores, so turn them into log-probabilities first (logits minus their log-sum-exp)",
        "axis": "you took the log-sum-exp along the first axis; each position's scores run along the last axis "
                "(axis=-1, with keepdims=True)",
        "sum": "you summed the losses of the positions; the loss is their mean",
        "one_hot": "you averaged the one-hot product over all N×V entries; average over the N positions only (the "
                   "sum over the vocabulary picks one log-probability per position)",
        "raised": "targets has the leading shape of logits; index the last axis of the log-probabilities with it",
    },
}
MISTAKES = ("axis", "sum", "one_hot", "probabilities")
MESSAGES = {"en": messages(SIGNATURE, "loss", WORDS["en"]["generic"], WORDS["en"]["shift"])["en"]}


def word(name, **values):
    """This checker's sentence `name` in the page's language (English until the other editions are written)."""
    return WORDS.get(current_language(), WORDS["en"])[name].format(**values)


def log_probabilities(logits, axis=-1):
    """logits minus their log-sum-exp along `axis`, with the largest subtracted first."""
    top = logits.max(axis=axis, keepdims=True)
    return logits - (top + np.log(np.exp(logits - top).sum(axis=axis, keepdims=True)))


def picked(values, targets):
    """values[..., targets]: the entry of each position's target."""
    return np.take_along_axis(values, targets[..., None], axis=-1)[..., 0]


def reference(logits, targets, mistake=None):
    """The mean negative log-likelihood, or what a known mistake computes instead."""
    if mistake == "probabilities":
        with np.errstate(invalid="ignore", divide="ignore"):
            return float(-np.log(picked(logits, targets)).mean())
    losses = -picked(log_probabilities(logits, 0 if mistake == "axis" else -1), targets)
    if mistake == "sum":
        return float(losses.sum())
    if mistake == "one_hot":
        return float(losses.sum() / (losses.size * logits.shape[-1]))
    return float(losses.mean())


def case_input(leading, size, scale, seed):
    """The case's logits (leading + (size,)) and targets (leading), with repeated targets."""
    rng = np.random.default_rng(seed)
    return scale * rng.normal(size=leading + (size,)), rng.integers(0, size, size=leading)


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    results = []
    for leading, size, scale, seed in CASES:
        results.append(_check_case(function, leading, size, scale, seed))
        if not results[-1]["ok"]:
            break
    return results


def _check_case(function, leading, size, scale, seed):
    """Run one case and compare it with the reference."""
    logits, targets = case_input(leading, size, scale, seed)
    case = word("case", shape=logits.shape, scale=number(scale, "g"))

    def raised_hint(error):
        return word("raised") if isinstance(error, IndexError) else phrasebook(SIGNATURE, "loss", "", "").phrases[
            "read_the_error"]

    with np.errstate(all="ignore"):
        loss, problem = call(function, (logits, targets), (logits, targets), case, raised_hint)
    if problem:
        return fail(problem)
    if isinstance(loss, np.ndarray) and loss.shape == ():
        loss = loss[()]
    if isinstance(loss, (bool, np.bool_)) or not isinstance(loss, (float, int, np.floating, np.integer)):
        described = phrasebook(SIGNATURE, "loss", "", "").describe(loss)
        return fail(word("not_number", case=case, value=described))
    loss = float(loss)
    expected = reference(logits, targets)
    if not np.isfinite(loss):
        hint = word("probabilities") if scale < 100 else word("shift")
        return fail(word("not_finite", case=case, value=loss, hint=hint))
    if abs(loss - expected) <= TOLERANCE * max(1.0, abs(expected)):
        return passed(case)
    hint = word("generic")
    for mistake in MISTAKES:
        rebuilt = reference(logits, targets, mistake)
        if np.isfinite(rebuilt) and abs(loss - rebuilt) <= TOLERANCE * max(1.0, abs(rebuilt)):
            hint = word(mistake)
            break
    return fail(word("differs", case=case, got=number(loss, ".6g"), expected=number(expected, ".6g"), hint=hint))
