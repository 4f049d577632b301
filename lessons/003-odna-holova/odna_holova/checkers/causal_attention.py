"""Checker for lesson 003's exercise: causal_attention(X, Wq, Wk, Wv) -> (A, H).

Runs the learner's function on several shapes (T = 1, d_k different from d and
from d_v, inputs large enough to overflow an unshifted exp), compares with a
reference and, when something differs, rebuilds the usual mistakes (mask after
the softmax, mask filled with 0, diagonal masked, wrong triangle, no or wrong
scaling, softmax over columns, no mask) to name the one that was made.
Every message is one Ukrainian sentence: what was expected, what came back, a hint.
"""

import numpy as np

from course.attention import softmax
from course.checkers.common import Phrasebook, run_cases, shape

FUNCTION = "causal_attention"
CASES = (  # (T, d, d_k, d_v, input scale, seed)
    (4, 5, 3, 2, 1.0, 1),
    (1, 4, 2, 3, 1.0, 2),
    (3, 4, 4, 4, 1.0, 3),
    (6, 3, 5, 3, 1.0, 4),
    (2, 6, 2, 1, 1.0, 5),
    (5, 4, 3, 2, 30.0, 6),
)
TOLERANCE = 1e-6
INPUT_NAMES = ("X", "Wq", "Wk", "Wv")

SAY = Phrasebook(
    "uk", signature="X, Wq, Wk, Wv", pair="(A, H)", ending="A, H",
    advice="наприклад, «Q / np.sqrt(d_k)» замість «Q /= ...»",
    shapes="перевірте форми: Q = X @ Wq має форму (T, d_k), а оцінки Q @ K.T — (T, T).",
    finite="відніміть максимум кожного рядка перед np.exp")
MESSAGES = SAY.messages()


def reference(X, Wq, Wk, Wv, hide="future", fill=-np.inf, after=False, scale=None, axis=-1):
    """Causal attention; the keywords rebuild common mistakes so that a failure can be named.

    hide: "future" (the right mask), "diagonal" (future and diagonal), "past" (the wrong triangle) or None.
    """
    Q, K, V = X @ Wq, X @ Wk, X @ Wv  # (T, d_k), (T, d_k), (T, d_v)
    if scale is None:
        scale = np.sqrt(K.shape[-1])
    scores = Q @ K.T / scale  # (T, T)
    ones = np.ones(scores.shape, dtype=bool)
    hidden = {"future": np.triu(ones, k=1), "diagonal": np.triu(ones, k=0), "past": np.tril(ones, k=-1),
              None: ~ones}[hide]
    if not after:
        scores = np.where(hidden, fill, scores)
    with np.errstate(invalid="ignore"):  # a fully hidden row gives NaN, which the caller explains
        A = softmax(scores, axis=axis)  # (T, T)
    if after:
        A = np.where(hidden, 0.0, A)
    return A, A @ V


MISTAKES = (  # (keywords for reference, the hint that names the mistake)
    ({"after": True}, "маску накладено вже після softmax, тож рядки не сумують до 1; заповніть майбутні "
                      "оцінки значенням -np.inf до softmax"),
    ({"fill": 0.0}, "майбутні оцінки заповнено нулем, а exp(0) = 1 лишає їм частку; заповнюйте їх -np.inf"),
    ({"hide": "past"}, "ви сховали минуле замість майбутнього; маскувати треба верхній трикутник, "
                       "np.triu(..., k=1)"),
    ({"hide": None}, "маски немає зовсім, кожна позиція бачить майбутнє; сховайте оцінки над діагоналлю "
                     "перед softmax"),
    ({"scale": 1.0}, "бракує ділення оцінок на √d_k перед softmax"),
    ({"axis": 0}, "softmax узято вздовж стовпців (axis=0); нормуйте кожен рядок, axis=-1"),
)


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    return run_cases(function, CASES, _check_case)


def _check_case(function, T, d, d_k, d_v, size, seed):
    """Run one case and compare it with the reference; a passed or failed result."""
    rng = np.random.default_rng(seed)
    inputs = [size * rng.normal(size=(T, d)), rng.normal(size=(d, d_k)), rng.normal(size=(d, d_k)),
              rng.normal(size=(d, d_v))]
    case = "випадку T={}, d={}, d_k={}, d_v={}".format(T, d, d_k, d_v) + (", великі входи" if size > 1 else "")
    return SAY.judge(function, inputs, case, INPUT_NAMES, lambda pair: _check_pair(pair, inputs, case))


def _check_pair(returned, inputs, case):
    """The first problem with the pair that came back, as a sentence, or None."""
    expected_A, expected_H = reference(*inputs)
    T, d_v = expected_H.shape
    A, H = returned
    if shape(A) == (T, d_v) and shape(H) == (T, T) and d_v != T:
        return "Для {} очікувалося (A, H) саме в такому порядку, а ви повернули спершу H; поміняйте їх у return.".format(
            case)
    d = inputs[0].shape[1]
    if shape(A) == (T, T) and shape(H) == (T, d) and d != d_v:
        return ("Для {} очікувалося H форми {}, а його форма {}: схоже, ви змішали рядки X, а не значення; "
                "множте ваги на V = X @ Wv.".format(case, (T, d_v), (T, d)))
    problem = SAY.array_problem("A", A, (T, T), case) or SAY.array_problem("H", H, (T, d_v), case)
    if problem:
        return problem if "NaN" not in problem else _explain_nan(A, inputs, case) or problem
    if not np.allclose(A, expected_A, atol=TOLERANCE):
        return _explain_weights(np.asarray(A, dtype=float), expected_A, inputs, case)
    if not np.allclose(H, expected_H, atol=TOLERANCE):
        return ("Для {} ваги A правильні, а суміші H ні (різниця до {}); H = A @ V, де V = X @ Wv.".format(
            case, _number(np.abs(np.asarray(H, dtype=float) - expected_H).max())))
    return None


def _explain_nan(A, inputs, case):
    """A sentence for a NaN that comes from masking the diagonal (the first row has nothing left), or None."""
    if not isinstance(A, np.ndarray) or A.ndim != 2 or A.shape[0] == 0:
        return None
    diagonal, _ = reference(*inputs, hide="diagonal")
    if np.all(np.isnan(A[0])) and np.allclose(A[1:], diagonal[1:], atol=TOLERANCE, equal_nan=True):
        return ("Для {} перший рядок A складається з NaN: ви сховали й діагональ, і першій позиції не лишилося на що "
                "дивитися; маскуйте лише над діагоналлю, np.triu(..., k=1).".format(case))
    return None


def _explain_weights(A, expected, inputs, case):
    """Name the mistake that produces these weights, or point at the likely places."""
    row = int(np.abs(A - expected).max(axis=1).argmax())
    hint = "перевірте маску (np.triu(..., k=1) і -np.inf до softmax) та ділення на √d_k, де d_k = Wk.shape[1]"
    d = inputs[0].shape[1]
    mistakes = MISTAKES + (({"scale": np.sqrt(d)}, "ви поділили на √d (ширину X), а треба на √d_k, ширину "
                                                   "запитів і ключів"),)
    for keywords, named in mistakes:
        if np.allclose(A, reference(*inputs, **keywords)[0], atol=TOLERANCE):
            hint = named
            break
    return "Для {} рядок A[{}] не такий, як очікувалося (різниця до {}): {}.".format(
        case, row, _number(np.abs(A[row] - expected[row]).max()), hint)


def _number(value):
    """A difference written the Ukrainian way: three significant digits and a decimal comma."""
    return "{:.3g}".format(value).replace(".", ",")
