"""Checker for lesson 004's exercise 3: softmax_temperatura(s, T) (English and Ukrainian editions:
softmax_temperature(s, T))
-> the weights of softmax(s / T), shape (n,).

Cases include a low temperature with large scores, where exp overflows unless the
maximum is subtracted first, and T = 1, where a forgotten temperature hides. When the
weights differ, the usual mistakes are rebuilt to name the one that was made.
"""

import numpy as np

from course.attention import softmax
from course.checkers.common import run_cases
from course.numbers import number

from ..corrector import Sentences, call, phrasebooks, rebuilt

FUNCTION = {"es": "softmax_temperatura", "en": "softmax_temperature", "uk": "softmax_temperature"}
CASES = (  # (scores, temperature)
    ((2.0, 1.0, 0.5, -1.0), 0.5),
    ((2.0, 1.0, 0.5, -1.0), 10.0),
    ((3.0, -2.0, 0.0), 1.0),
    ((0.3, 0.1), 2.0),
    ((40.0, 35.0, 30.0, 0.0), 0.05),
    ((1.5,), 0.7),
)
TOLERANCE = 1e-9
SAY = phrasebooks({"es": "s, T", "en": "s, T", "uk": "s, T"},
                  {"es": "pesos", "en": "weights", "uk": "weights"})
MESSAGES = SAY.messages()
SENTENCES = Sentences({
    "es": {
        "case": "s={} y T={}",
        "result": "el resultado",
        "nan": "Con {} salen NaN: con una temperatura baja, s / T es enorme y np.exp se desborda; resta el máximo de "
               "s / T antes de np.exp.",
        "wrong": "Con {} se esperaban los pesos {}, pero tu función devolvió {}; {}",
        "times_t": "multiplicaste por T; la temperatura divide: s / T.",
        "t_squared": "dividiste entre T²; se divide una sola vez: s / T.",
        "no_t": "la temperatura no cambia nada en tu resultado; divide s entre T antes del softmax.",
        "by_max": "los pesos no suman 1: divide entre la suma de las exponenciales, no entre la mayor.",
        "not_normalized": "los pesos no suman 1: falta dividir las exponenciales entre su suma.",
        "no_exp": "sin exponencial no es un softmax: aplica np.exp antes de normalizar.",
        "sum_without_t": "en el denominador también va s / T: divide np.exp(s / T) entre su propia suma.",
        "other": "calcula s / T, resta su máximo, aplica np.exp y divide entre la suma.",
    },
    "en": {
        "case": "s={} and T={}",
        "result": "the result",
        "nan": "For {}, you get NaN: at a low temperature s / T is huge and np.exp overflows; subtract the maximum of "
               "s / T before np.exp.",
        "wrong": "For {}, the weights {} were expected, but your function returned {}; {}",
        "times_t": "you multiplied by T; the temperature divides: s / T.",
        "t_squared": "you divided by T squared; divide once: s / T.",
        "no_t": "the temperature changes nothing in your result; divide s by T before the softmax.",
        "by_max": "the weights do not add up to 1: divide by the sum of the exponentials, not by the largest one.",
        "not_normalized": "the weights do not add up to 1: the exponentials still have to be divided by their sum.",
        "no_exp": "without the exponential it is not a softmax: apply np.exp before normalizing.",
        "sum_without_t": "the denominator needs s / T too: divide np.exp(s / T) by its own sum.",
        "other": "compute s / T, subtract its maximum, apply np.exp and divide by the sum.",
    },
    "uk": {
        "case": "s={} і T={}",
        "result": "результат",
        "nan": "Для {} виходять NaN: за низької температури s / T величезне і np.exp переповнюється; відніміть "
               "максимум s / T перед np.exp.",
        "wrong": "Для {} очікувалися ваги {}, але ваша функція повернула {}; {}",
        "times_t": "ви помножили на T, а температура ділить: s / T.",
        "t_squared": "ви поділили на T², а ділити треба один раз: s / T.",
        "no_t": "температура нічого не змінює у вашому результаті; поділіть s на T перед softmax.",
        "by_max": "ваги не сумують до 1: діліть на суму експонент, а не на найбільшу з них.",
        "not_normalized": "ваги не сумують до 1: експоненти ще треба поділити на їхню суму.",
        "no_exp": "без експоненти це не softmax: застосуйте np.exp перед нормуванням.",
        "sum_without_t": "у знаменнику теж має бути s / T: поділіть np.exp(s / T) на його власну суму.",
        "other": "обчисліть s / T, відніміть його максимум, застосуйте np.exp і поділіть на суму.",
    },
})


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    return run_cases(function, CASES, _check_case)


def _check_case(function, s, T):
    """Compare the learner's weights with softmax(s / T) for one case (s given as a tuple); a passed or failed result."""
    s = np.array(s)
    case = SENTENCES.say("case", number(s), number(T))
    value, problem = call(function, (s, T), case)
    expected = softmax(s / T)
    if problem is None:
        problem = SAY.now.array_problem(SENTENCES.say("result"), value, expected.shape, case, allow_nan=True)
    if problem is None and not np.all(np.isfinite(value)):
        problem = SENTENCES.say("nan", case)
    if problem is None and not np.allclose(value, expected, atol=TOLERANCE):
        problem = SENTENCES.say("wrong", case, number(expected, ".3f"), number(value, ".3f"), _mistake(value, s, T))
    return SAY.verdict(problem, case)


def _mistake(value, s, T):
    """The usual mistake that gives `value`, as the end of a sentence, or a hint to rebuild it step by step."""
    shifted = np.exp(s / T - (s / T).max())
    variants = (
        (softmax(s * T), "times_t"),
        (softmax(s / T ** 2), "t_squared"),
        (softmax(s), "no_t"),
        (shifted / shifted.max(), "by_max"),
        (np.exp(s / T), "not_normalized"),
        ((s / T) / (s / T).sum(), "no_exp"),
        (np.exp(s / T) / np.exp(s).sum(), "sum_without_t"),
    )
    return SENTENCES.say(rebuilt(value, variants) or "other")
