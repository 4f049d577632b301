"""Checker for lesson 004's exercise 3: softmax_temperatura(s, T) -> the weights of softmax(s / T), shape (n,).

Cases include a low temperature with large scores, where exp overflows unless the
maximum is subtracted first, and T = 1, where a forgotten temperature hides. When the
weights differ, the usual mistakes are rebuilt to name the one that was made.
"""

import numpy as np

from course.attention import softmax
from course.numbers import number

from ..corrector import call, phrasebook, rebuilt

FUNCTION = "softmax_temperatura"
CASES = (  # (scores, temperature)
    ((2.0, 1.0, 0.5, -1.0), 0.5),
    ((2.0, 1.0, 0.5, -1.0), 10.0),
    ((3.0, -2.0, 0.0), 1.0),
    ((0.3, 0.1), 2.0),
    ((40.0, 35.0, 30.0, 0.0), 0.05),
    ((1.5,), 0.7),
)
TOLERANCE = 1e-9
SAY = phrasebook("s, T", "pesos")
MESSAGES = SAY.messages()


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    results = []
    for scores, temperature in CASES:
        results.append(_check_case(function, np.array(scores), temperature))
        if not results[-1]["ok"]:
            break
    return results


def _check_case(function, s, T):
    """Compare the learner's weights with softmax(s / T) for one case; a passed or failed result."""
    case = "s={} y T={}".format(number(s), number(T))
    value, problem = call(function, (s, T), case)
    expected = softmax(s / T)
    if problem is None:
        problem = SAY.array_problem("el resultado", value, expected.shape, case, allow_nan=True)
    if problem is None and not np.all(np.isfinite(value)):
        problem = ("Con {} salen NaN: con una temperatura baja, s / T es enorme y np.exp se desborda; resta el "
                   "máximo de s / T antes de np.exp.".format(case))
    if problem is None and not np.allclose(value, expected, atol=TOLERANCE):
        problem = "Con {} se esperaban los pesos {}, pero tu función devolvió {}; {}".format(
            case, number(expected, ".3f"), number(value, ".3f"), _mistake(value, s, T))
    if problem:
        return {"ok": False, "message": problem}
    return {"ok": True, "message": MESSAGES["passed"].format(case=case)}


def _mistake(value, s, T):
    """The usual mistake that gives `value`, as the end of a sentence, or a hint to rebuild it step by step."""
    shifted = np.exp(s / T - (s / T).max())
    variants = (
        (softmax(s * T), "multiplicaste por T; la temperatura divide: s / T."),
        (softmax(s / T ** 2), "dividiste entre T²; se divide una sola vez: s / T."),
        (softmax(s), "la temperatura no cambia nada en tu resultado; divide s entre T antes del softmax."),
        (shifted / shifted.max(), "los pesos no suman 1: divide entre la suma de las exponenciales, no entre la "
                                  "mayor."),
        (np.exp(s / T), "los pesos no suman 1: falta dividir las exponenciales entre su suma."),
        ((s / T) / (s / T).sum(), "sin exponencial no es un softmax: aplica np.exp antes de normalizar."),
        (np.exp(s / T) / np.exp(s).sum(), "en el denominador también va s / T: divide np.exp(s / T) entre su "
                                          "propia suma."),
    )
    return rebuilt(value, variants) or "calcula s / T, resta su máximo, aplica np.exp y divide entre la suma."
