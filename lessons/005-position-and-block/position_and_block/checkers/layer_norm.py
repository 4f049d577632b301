"""Checker for layer_norm(x, eps) -> an array shaped like x: each vector along the last axis normalized.

    (x - mean) / sqrt(var + eps), mean and (biased) variance over the last axis, no scale or shift.

The cases mix shapes (T, D) with T != D, a (B, T, D) batch, a row that is constant (where eps is all
that keeps the division finite), rows far from 0, and eps large enough to matter. When the output
differs, the usual mistakes are rebuilt and the one that matches is named in one sentence.
"""

import numpy as np

from course.checkers.common import fail
from course.numbers import current_language, number

from .shared import call, messages, passed, phrasebook

FUNCTION = "layer_norm"
SIGNATURE = "x, eps"
CASES = (  # (shape, eps, seed, constant row?)
    ((4, 6), 1e-5, 1, False),
    ((3, 5), 0.5, 2, False),
    ((2, 3, 4), 1e-5, 3, False),
    ((5, 8), 1e-5, 4, True),
    ((1, 7), 2.0, 5, False),
    ((2, 2, 3, 5), 0.1, 6, False),  # more than one leading axis
)
TOLERANCE = 1e-6
WORDS = {
    "en": {
        "name": "the output",
        "case": "x of shape {shape}, eps={eps}",
        "constant": ", a constant row",
        "shapes": "take the mean and the variance over the last axis with keepdims=True, so that they are "
                  "subtracted from every coordinate of their own row.",
        "finite": "put eps inside the square root, np.sqrt(var + eps), so that a constant row does not divide by 0",
        "differs": "For {case} the output is not the expected one (largest difference {difference}); {hint}.",
        "generic": "each vector along the last axis should become (x - mean) / sqrt(var + eps), with its own mean and "
                   "variance",
        "axis": "you normalized along the first axis, across positions; layer norm normalizes each position's "
                "vector, along the last axis (axis=-1)",
        "unbiased": "you divided the squared deviations by D - 1; layer norm uses the plain mean of the squared "
                    "deviations, dividing by D (np.var's default, ddof=0)",
        "outside": "you added eps outside the square root; it goes inside, np.sqrt(var + eps)",
        "no_eps": "eps is not used; it goes inside the square root, np.sqrt(var + eps)",
        "variance": "you divided by the variance, not by its square root",
        "no_divide": "you subtracted the mean but did not divide by the standard deviation",
        "whole": "you took one mean and one variance over the whole array; each vector along the last axis gets "
                 "its own",
        "sum": "you added up the squared deviations instead of averaging them; the variance is their mean, the sum "
               "divided by D",
        "scale": "you multiplied the result by something; without γ and β the output is (x - mean) / sqrt(var + eps) "
                 "alone",
    },
    "es": {
        "name": "la salida",
        "case": "x de forma {shape}, eps={eps}",
        "constant": ", una fila constante",
        "shapes": "toma la media y la varianza sobre el último eje con keepdims=True, para que se resten de cada "
                  "coordenada de su propia fila.",
        "finite": "pon eps dentro de la raíz, np.sqrt(var + eps), para que una fila constante no divida entre 0",
        "differs": "Con {case} la salida no es la esperada (mayor diferencia {difference}); {hint}.",
        "generic": "cada vector a lo largo del último eje debe quedar como (x - media) / sqrt(var + eps), con su "
                   "propia media y varianza",
        "axis": "normalizaste a lo largo del primer eje, entre posiciones; la normalización de capa normaliza el "
                "vector de cada posición, a lo largo del último eje (axis=-1)",
        "unbiased": "dividiste los cuadrados de las desviaciones entre D - 1; la normalización de capa usa su media "
                    "simple, dividiendo entre D (lo que np.var hace por defecto, ddof=0)",
        "outside": "sumaste eps fuera de la raíz; va dentro, np.sqrt(var + eps)",
        "no_eps": "no usas eps; va dentro de la raíz, np.sqrt(var + eps)",
        "variance": "dividiste entre la varianza, no entre su raíz cuadrada",
        "no_divide": "restaste la media pero no dividiste entre la desviación típica",
        "whole": "tomaste una sola media y una sola varianza de todo el array; cada vector del último eje tiene las "
                 "suyas",
        "sum": "sumaste los cuadrados de las desviaciones en lugar de promediarlos; la varianza es su media, la suma "
               "dividida entre D",
        "scale": "multiplicaste el resultado por algo; sin γ ni β la salida es sólo (x - media) / sqrt(var + eps)",
    },
    "uk": {
        "name": "вихід",
        "case": "x форми {shape}, eps={eps}",
        "constant": ", один рядок сталий",
        "shapes": "беріть середнє й дисперсію вздовж останньої осі з keepdims=True, щоб вони віднімалися від кожної "
                  "координати свого рядка.",
        "finite": "покладіть eps під корінь, np.sqrt(var + eps), щоб сталий рядок не ділився на 0",
        "differs": "Для {case} вихід не той, що очікувався (найбільша різниця {difference}); {hint}.",
        "generic": "кожен вектор уздовж останньої осі має стати (x - середнє) / sqrt(var + eps), зі своїми середнім і "
                   "дисперсією",
        "axis": "ви нормалізували вздовж першої осі, між позиціями; нормалізація шару нормалізує вектор кожної "
                "позиції, вздовж останньої осі (axis=-1)",
        "unbiased": "ви поділили суму квадратів відхилень на D - 1; нормалізація шару бере їхнє просте середнє, "
                    "ділячи на D (як np.var за замовчуванням, ddof=0)",
        "outside": "ви додали eps поза коренем; він має бути під коренем, np.sqrt(var + eps)",
        "no_eps": "eps не використано; він має бути під коренем, np.sqrt(var + eps)",
        "variance": "ви поділили на дисперсію, а не на корінь із неї",
        "no_divide": "ви відняли середнє, але не поділили на стандартне відхилення",
        "whole": "ви взяли одне середнє й одну дисперсію для всього масиву; кожен вектор останньої осі має свої",
        "sum": "ви додали квадрати відхилень, а не взяли їхнє середнє; дисперсія — це середнє, тобто сума, поділена "
               "на D",
        "scale": "ви помножили результат на щось; без γ і β вихід — це лише (x - середнє) / sqrt(var + eps)",
    },
}
MISTAKES = ("axis", "unbiased", "sum", "outside", "no_eps", "variance", "no_divide", "whole")
MESSAGES = messages(SIGNATURE, "y", WORDS["en"]["shapes"], WORDS["en"]["finite"])


def reference(x, eps, mistake=None):
    """Layer norm over the last axis, or what a known mistake computes instead."""
    axis = 0 if mistake == "axis" else (None if mistake == "whole" else -1)
    mean = x.mean(axis=axis, keepdims=True)
    var = x.var(axis=axis, keepdims=True, ddof=1 if mistake == "unbiased" and x.shape[-1] > 1 else 0)
    if mistake == "sum":  # the squared deviations added up: D times the variance
        var = var * x.shape[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        if mistake == "outside":
            return (x - mean) / (np.sqrt(var) + eps)
        if mistake == "no_eps":
            return (x - mean) / np.sqrt(var)
        if mistake == "variance":
            return (x - mean) / (var + eps)
        if mistake == "no_divide":
            return x - mean
        return (x - mean) / np.sqrt(var + eps)


def word(name, **values):
    """This checker's sentence `name` in the page's language."""
    return WORDS[current_language()][name].format(**values)


def case_input(shape, seed, constant):
    """The case's x: shifted and scaled rows, one of them constant if asked."""
    rng = np.random.default_rng(seed)
    x = 3.0 * rng.normal(size=shape) + rng.normal(size=shape[:-1] + (1,)) * 10
    if constant:
        x[1] = 4.0
    return x


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    results = []
    for shape, eps, seed, constant in CASES:
        results.append(_check_case(function, shape, eps, seed, constant))
        if not results[-1]["ok"]:
            break
    return results


def _check_case(function, shape, eps, seed, constant):
    """Run one case and compare it with the reference."""
    x = case_input(shape, seed, constant)
    case = word("case", shape=shape, eps=number(eps, "g")) + (word("constant") if constant else "")
    say = phrasebook(SIGNATURE, "y", word("shapes"), word("finite"))

    def raised_hint(error):
        return word("shapes") if "broadcast" in str(error) else say.phrases["read_the_error"]

    y, problem = call(function, (x, eps), (x,), case, raised_hint)
    if problem:
        return fail(problem)
    problem = say.array_problem(word("name"), y, x.shape, case)
    if problem:
        return fail(problem)
    expected = reference(x, eps)
    if np.allclose(y, expected, atol=TOLERANCE):
        return passed(case)
    hint = word("generic")
    for mistake in MISTAKES:
        rebuilt = reference(x, eps, mistake)
        if np.all(np.isfinite(rebuilt)) and np.allclose(y, rebuilt, atol=TOLERANCE):
            hint = word(mistake)
            break
    else:
        ratio = y / np.where(expected == 0, 1, expected)
        if np.allclose(ratio[expected != 0], ratio[expected != 0].flat[0]):
            hint = word("scale")
    return fail(word("differs", case=case, difference=number(float(np.abs(y - expected).max()), ".3g"), hint=hint))
