"""Checker for lesson 004's mini-project gap: objetivo_ordenado(X) -> (N, T), every sequence sorted.

Cases have repeated digits, more sequences than positions and the reverse, so sorting
along the wrong axis or returning positions instead of digits shows. Each usual
mistake is rebuilt to name the one that was made.
"""

import numpy as np

from course.checkers.common import run_cases

from ..corrector import call, phrasebook, rebuilt
from ..miniproyecto import objetivo_ordenado as reference

FUNCTION = "objetivo_ordenado"
CASES = ((5, 8, 1), (3, 8, 2), (12, 4, 3), (1, 6, 4), (7, 7, 5), (40, 8, 6))  # (sequences, length, seed)
SAY = phrasebook("X", "Y")
MESSAGES = SAY.messages()


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    return run_cases(function, CASES, _check_case)


def _check_case(function, N, T, seed):
    """Compare the learner's targets with the sorted sequences; a passed or failed result."""
    X = np.random.default_rng(seed).integers(0, 10, size=(N, T))
    case = "{} secuencias de {} dígitos".format(N, T)
    value, problem = call(function, (X,), case)
    if problem and "modificó" in problem:
        problem = ("Con {} tu función ordenó X en su sitio (X.sort(...)) y los datos de entrada ya no son los "
                   "de antes; usa np.sort(X, axis=1), que devuelve un array nuevo.".format(case))
    expected = reference(X)
    if problem is None and isinstance(value, np.ndarray) and value.shape == (N * T,):
        problem = ("Con {} se esperaba un array de forma {}, pero el tuyo es plano, {}: sin axis, np.sort ordena "
                   "todo junto; ordena cada fila con axis=1.".format(case, expected.shape, value.shape))
    if problem is None and not isinstance(value, np.ndarray):
        problem = "Con {} se esperaba un array de NumPy de forma {}, pero tu función devolvió {}.".format(
            case, expected.shape, SAY.describe(value))
    if problem is None and value.shape != expected.shape:
        problem = "Con {} se esperaba forma {}, pero tu array tiene forma {}.".format(case, expected.shape, value.shape)
    if problem is None and not np.array_equal(value, expected):
        problem = "Con {} la forma es la buena, pero los dígitos no: {}".format(case, _mistake(value, X))
    if problem:
        return {"ok": False, "message": problem}
    return {"ok": True, "message": MESSAGES["passed"].format(case=case)}


def _mistake(value, X):
    """The usual mistake that gives `value`, as the end of a sentence, or a hint to look at one row."""
    variants = (
        (np.sort(X, axis=0), "ordenaste cada columna (axis=0), es decir, entre secuencias distintas; cada secuencia "
                             "es una fila: axis=1."),
        (np.argsort(X, axis=1), "np.argsort da las posiciones de los dígitos en orden, no los dígitos; usa "
                                "np.sort."),
        (np.sort(X, axis=1)[:, ::-1], "ordenaste de mayor a menor; el objetivo va de menor a mayor."),
        (X, "devolviste la entrada sin ordenar."),
    )
    return rebuilt(value, variants) or "compara la primera fila de tu resultado con sorted(X[0])."
