"""Checker for lesson 003's challenge: make_wq() -> Wq (2, 2), so that tower attends to Eiffel most.

The sentence is the lesson's 2-D toy: the [0, 0], Eiffel [0, 1], tower [1, 0] on the axes
structure and «паризькість»; keys and values are the inputs themselves (Wk = Wv = I) and
scores are divided by √2. tower's query is x_tower @ Wq, that is the first row of Wq.
Passing needs Eiffel's weight in tower's row to be larger than the weight of the and of
tower itself. A failure names the mistake: no matrix, a vector instead of a matrix, a query
against Paris, the column convention (Wq written transposed), a zero query, raw
similarity (the query still along structure), or a tie with tower.
Every message is one Ukrainian sentence: what was expected, what came back, a hint.
"""

import numpy as np

from course.attention import softmax
from course.checkers.common import Phrasebook
from course.numbers import number

FUNCTION = "make_wq"
TOKENS = ("the", "Eiffel", "tower")
X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]])  # (3, 2): the, Eiffel, tower
EIFFEL, TOWER = 1, 2
MARGIN = 1e-9  # Eiffel must win by more than rounding

SAY = Phrasebook(
    "uk", signature="", pair="Wq", ending="Wq", advice="", shapes="", finite="")
MESSAGES = SAY.messages()


def weights(Wq):
    """tower's attention row (3,) with this Wq, Wk = I and scores divided by √2."""
    q = X[TOWER] @ Wq  # (2,)
    return softmax(X @ q / np.sqrt(2))


def wins(Wq):
    """True when Eiffel gets more of tower's attention than any other token."""
    w = weights(Wq)
    return bool(w[EIFFEL] > max(w[0], w[TOWER]) + MARGIN)


def check(function):
    """One result: the Wq that make_wq() returns, judged on the/Eiffel/tower."""
    try:
        returned = function()
    except Exception as error:  # the learner's bug, reported as a sentence
        return [_fail("Очікувалася матриця Wq, але make_wq() викинула {}: {}; прочитайте повідомлення й випробуйте "
                      "функцію в комірці.".format(type(error).__name__, error))]
    problem = _matrix_problem(returned)
    if problem is None:
        Wq = np.asarray(returned, dtype=float)
        problem = None if wins(Wq) else _why_not(Wq)
    if problem:
        return [_fail(problem)]
    w = weights(np.asarray(returned, dtype=float))
    return [{"ok": True, "message": "Правильно: з вашою Wq tower віддає Eiffel {}, більше, ніж the ({}) і собі ({}).".format(
        number(w[EIFFEL], ".4f"), number(w[0], ".4f"), number(w[TOWER], ".4f"))}]


def _matrix_problem(returned):
    """A sentence if `returned` is not a finite 2×2 matrix of numbers, else None."""
    if returned is None:
        return "Очікувалася матриця Wq, але make_wq() повернула None; закінчіть функцію рядком «return Wq»."
    try:
        Wq = np.asarray(returned, dtype=float)
    except (TypeError, ValueError):
        return "Очікувалася матриця чисел форми (2, 2), а make_wq() повернула {}.".format(SAY.describe(returned))
    if Wq.shape == (2,):
        return ("Очікувалася матриця форми (2, 2), а ви повернули вектор форми (2,), схоже, сам запит tower; поверніть "
                "матрицю Wq, з якої запит виходить як x_tower @ Wq.")
    if Wq.shape != (2, 2):
        return ("Очікувалася матриця форми (2, 2): два рядки на дві координати входу й два стовпці, бо ключі мають дві "
                "координати; а її форма {}.".format(Wq.shape))
    if not np.all(np.isfinite(Wq)):
        return "Матриця Wq містить NaN або нескінченності; запишіть у неї звичайні числа."
    return None


def _why_not(Wq):
    """Name the mistake of a 2×2 Wq with which Eiffel does not win."""
    w = weights(Wq)
    q = X[TOWER] @ Wq  # (2,): the first row of Wq
    said = {"w": number(w, ".4f"), "q": number(q, ".2f"), "eiffel": number(w[EIFFEL], ".4f"),
            "tower": number(w[TOWER], ".4f")}
    if np.allclose(Wq, 0.0):
        return ("Нульова Wq дає нульовий запит, тож усі три оцінки дорівнюють нулю й ваги tower рівні, {w}; запит tower "
                "мусить мати додатну координату паризькості.".format(**said))
    if q[1] < 0:
        return ("Запит tower {q} має від'ємну координату паризькості й відштовхується від Eiffel: той отримує найменшу "
                "вагу, {eiffel}; зробіть цю координату додатною.".format(**said))
    if wins(Wq.T):
        return ("Ваша матриця спрацювала б транспонованою: ви записали її в стовпцевих позначеннях (запит = Wq · x), а "
                "код рахує запит як x @ Wq, тож запит tower вийшов {q}; транспонуйте Wq.".format(**said))
    if np.allclose(q, 0.0):
        return ("Запит tower нульовий, {q}: tower = [1, 0] читає лише перший рядок Wq, а в ньому самі нулі, тож ваги "
                "рівні, {w}; запишіть потрібний запит у перший рядок.".format(**said))
    if np.isclose(q[1], 0.0):
        return ("Запит tower {q} не має координати паризькості, тож Eiffel отримує ту саму оцінку, що й порожній the "
                "(ваги {w}): це досі сира схожість; запит tower має дивитися вздовж паризькості.".format(**said))
    return ("Запит tower {q} дивиться на Eiffel, але структурна координата не менша за паризьку, тож tower отримує не "
            "менше, ніж Eiffel ({tower} проти {eiffel}); зробіть координату паризькості більшою за структурну."
            .format(**said))


def _fail(message):
    """A failed result with its sentence."""
    return {"ok": False, "message": message}
