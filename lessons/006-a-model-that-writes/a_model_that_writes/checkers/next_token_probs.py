"""Checker for next_token_probs(logits, temperature, top_k, top_p) -> the (V,) vector to draw the next token from.

    divide the logits by the temperature (0: all the mass on the argmax); softmax; keep the top_k most probable
    (None keeps all) and renormalize; keep the smallest set of the most probable whose mass reaches top_p, the
    crossing token included (None keeps all), and renormalize again. Ties go to the lower token id.

Each case is a vector of logits and a setting of the three knobs; some have tied logits where top-k or top-p
cuts, one has logits in the hundreds, and no case's running mass lies within 1e-6 of its top_p, so rounding never
decides which token crosses. When the vector differs, the usual mistakes are rebuilt and the one that matches
is named in one sentence.
"""

import numpy as np

from course.checkers.common import fail
from course.numbers import current_language, number

from .shared import call, messages, passed, phrasebook

FUNCTION = "next_token_probs"
SIGNATURE = "logits, temperature, top_k, top_p"
TIED = (2.0, 0.5, 1.0, 2.0, 1.0, -1.0, 1.0, 0.0)  # ids 0 and 3 tie for the top, ids 2, 4 and 6 for the third place
CASES = (  # (logits: seed or a tuple, V, scale, temperature, top_k, top_p)
    (1, 8, 1.5, 1.0, None, None),  # the softmax alone
    (2, 8, 1.5, 0.5, None, None),  # the temperature alone
    (3, 10, 1.5, 1.0, 3, None),  # top-k alone
    (4, 10, 1.0, 1.0, None, 0.7),  # top-p alone
    (5, 12, 1.0, 1.5, 5, 0.6),  # all three
    (6, 27, 2.0, 0, None, None),  # greedy
    (TIED, 8, 1.0, 1.0, 4, None),  # a tie where top-k cuts: ids 2 and 4 kept, 6 dropped
    (TIED, 8, 1.0, 1.0, None, 0.6),  # a tie where top-p cuts: id 2 crosses, before 4 and 6
    (TIED, 8, 1.0, 0, 2, 0.9),  # greedy on a tie: id 0
    (7, 9, 2.0, 2.0, 20, None),  # top_k above the vocabulary's size keeps all
    (8, 27, 1.0, 1.0, None, 0.05),  # the most probable alone crosses top_p
    (9, 6, 400.0, 0.7, 3, 0.95),  # logits in the hundreds: exp overflows without the shift
    (10, 27, 2.0, 1.2, 1, None),  # top_k = 1
)
RTOL, ATOL = 1e-9, 1e-12
WORDS = {
    "en": {
        "case": "{size} logits at temperature {temperature}, top_k {top_k}, top_p {top_p}",
        "differs": "For {case} token {token} gets probability {got}, not {expected}; {hint}.",
        "not_finite": "For {case} the probabilities hold NaN or infinities; {hint}.",
        "generic": "compare your steps, in order, with the ones the exercise lists",
        "sum": "your probabilities sum to {total}, not 1",
        "after_softmax": "you divided the probabilities by the temperature after the softmax, which only rescales "
                         "them; the temperature divides the logits, before the softmax",
        "greedy": "at temperature {temperature} you put all the mass on the most probable token; only temperature "
                  "0 is greedy, and temperature 1 leaves the softmax as it is",
        "k_plus_one": "you kept {kept} tokens, one more than top_k",
        "k_minus_one": "you kept {kept} tokens, one fewer than top_k",
        "crossing": "you dropped the token that carries the kept mass past top_p; it belongs to the set, since "
                    "without it the mass does not reach top_p",
        "no_renormalizing": "you did not renormalize after dropping tokens, so what is kept sums to {total}, not 1",
        "renormalized_late": "you measured top_p against the top_k tokens' mass before renormalizing it; "
                             "renormalize after top-k, then add up the mass for top-p",
        "ties": "of tokens with equal probability you kept the higher id; ties go to the lower id (a stable sort "
                "of -p, not a reversed sort of p)",
        "zero": "at temperature 0 the division by zero gave NaN; temperature 0 means greedy, all the mass on the "
                "argmax, so handle it before dividing",
        "shift": "exp overflowed: subtract the largest logit before np.exp",
        "empty": "every token was dropped, so renormalizing divided by zero; {hint}",
        "raised": "read the error and the line it points to",
    },
}
MISTAKES = ("after_softmax", "after_softmax_renormalized", "greedy", "k_plus_one", "k_minus_one", "crossing",
            "no_renormalizing", "renormalized_late", "ties")
HINTS = {"after_softmax_renormalized": "after_softmax"}  # two forms of one slip, one sentence
MESSAGES = {"en": messages(SIGNATURE, "probabilities", WORDS["en"]["generic"], WORDS["en"]["shift"])["en"]}


def word(name, **values):
    """This checker's sentence `name` in the page's language (English until the other editions are written)."""
    return WORDS.get(current_language(), WORDS["en"])[name].format(**values)


def order_of(p, ties_to_higher=False):
    """The ids of `p` from the most probable down, ties to the lower id (or, by mistake, to the higher)."""
    if ties_to_higher:
        return np.argsort(p, kind="stable")[::-1]
    return np.argsort(-p, kind="stable")


def keep(p, ids, renormalize=True):
    """`p` with every id outside `ids` set to 0, then (unless told not to) divided by what is left."""
    kept = np.zeros(p.shape, dtype=bool)
    kept[ids] = True
    p = np.where(kept, p, 0.0)
    return p / p.sum() if renormalize else p


def reference(logits, temperature, top_k, top_p, mistake=None):
    """The vector to draw from, or what a known mistake computes instead."""
    z = np.asarray(logits, dtype=np.float64)
    ties = mistake == "ties"
    if temperature == 0 or (mistake == "greedy" and temperature <= 1):
        return keep(np.ones(z.shape), order_of(z, ties)[:1], renormalize=False)
    after = mistake in ("after_softmax", "after_softmax_renormalized")
    if not after:
        z = z / temperature
    p = np.exp(z - z.max())
    p = p / p.sum()
    if after:
        p = p / temperature if mistake == "after_softmax" else p
    renormalize = mistake not in ("no_renormalizing", "renormalized_late")
    if top_k is not None:
        k = top_k + (1 if mistake == "k_plus_one" else -1 if mistake == "k_minus_one" else 0)
        p = keep(p, order_of(p, ties)[:max(k, 0)], renormalize)
    if top_p is not None:
        order = order_of(p, ties)
        running = np.cumsum(p[order])  # the mass of each token and all those ahead of it
        needed = running < top_p if mistake == "crossing" else running - p[order] < top_p
        p = keep(p, order[needed], renormalize)
    if mistake == "renormalized_late":
        p = p / p.sum()
    return p


def case_input(logits, size, scale):
    """The case's logits (size,): a seed's normal draws times `scale`, or the tuple given."""
    if isinstance(logits, tuple):
        return np.array(logits, dtype=np.float64)
    return scale * np.random.default_rng(logits).normal(size=size)


def describe(value):
    """None as None, a number in the page's digits."""
    return "None" if value is None else number(value, "g")


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    results = []
    for case in CASES:
        results.append(_check_case(function, *case))
        if not results[-1]["ok"]:
            break
    return results


def close(a, b):
    """Equal to rounding, entry by entry."""
    return a.shape == b.shape and bool(np.all(np.isfinite(a))) and np.allclose(a, b, rtol=RTOL, atol=ATOL)


def _check_case(function, logits, size, scale, temperature, top_k, top_p):
    """Run one case and compare it with the reference."""
    logits = case_input(logits, size, scale)
    case = word("case", size=len(logits), temperature=describe(temperature), top_k=describe(top_k),
                top_p=describe(top_p))
    book = phrasebook(SIGNATURE, "probabilities", "", "")

    def raised_hint(error):
        if isinstance(error, ZeroDivisionError) and temperature == 0:
            return word("zero")
        return word("raised")

    with np.errstate(all="ignore"):
        got, problem = call(function, (logits, temperature, top_k, top_p), (logits,), case, raised_hint)
        if problem:
            return fail(problem)
        problem = book.array_problem("the probabilities", got, logits.shape, case, allow_nan=True)
        if problem:
            return fail(problem)
        got = got.astype(np.float64)
        expected = reference(logits, temperature, top_k, top_p)
        if close(got, expected):
            return passed(case)
        if not np.all(np.isfinite(got)):
            hint = word("zero") if temperature == 0 else word("shift") if scale > 100 else word(
                "empty", hint=word("generic"))
            return fail(word("not_finite", case=case, hint=hint))
        hint = _mistake(got, logits, temperature, top_k, top_p)
    token = int(np.argmax(np.abs(got - expected)))
    return fail(word("differs", case=case, token=token, got=number(got[token], ".4g"),
                     expected=number(expected[token], ".4g"), hint=hint))


def _mistake(got, logits, temperature, top_k, top_p):
    """The sentence of the known mistake that gives `got`, or the sum's, or the generic one."""
    for mistake in MISTAKES:
        rebuilt = reference(logits, temperature, top_k, top_p, mistake)
        if close(got, rebuilt):
            name = HINTS.get(mistake, mistake)
            kept = int(np.count_nonzero(got))
            return word(name, temperature=describe(temperature), kept=kept, total=number(got.sum(), ".4g"))
    if abs(got.sum() - 1) > 1e-6:
        return word("sum", total=number(got.sum(), ".4g"))
    return word("generic")
