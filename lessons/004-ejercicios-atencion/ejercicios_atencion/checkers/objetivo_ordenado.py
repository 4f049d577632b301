"""Checker for lesson 004's mini-project gap: objetivo_ordenado(X) -> (N, T), every sequence sorted
(English and Ukrainian editions: sorted_target(X)).

Cases have repeated digits, more sequences than positions and the reverse, so sorting
along the wrong axis or returning positions instead of digits shows. Each usual
mistake is rebuilt to name the one that was made.
"""

import numpy as np

from course.checkers.common import run_cases

from ..corrector import Sentences, call, modified, phrasebooks, rebuilt
from ..miniproyecto import objetivo_ordenado as reference

FUNCTION = {"es": "objetivo_ordenado", "en": "sorted_target", "uk": "sorted_target"}
CASES = ((5, 8, 1), (3, 8, 2), (12, 4, 3), (1, 6, 4), (7, 7, 5), (40, 8, 6))  # (sequences, length, seed)
SAY = phrasebooks({"es": "X", "en": "X", "uk": "X"}, {"es": "Y", "en": "Y", "uk": "Y"})
MESSAGES = SAY.messages()
SENTENCES = Sentences({
    "es": {
        "case": "{} secuencias de {} dígitos",
        "case_one": "{} secuencia de {} dígitos",
        "in_place": "Con {} tu función ordenó X en su sitio (X.sort(...)) y los datos de entrada ya no son los de "
                    "antes; usa np.sort(X, axis=1), que devuelve un array nuevo.",
        "flattened": "Con {} se esperaba un array de forma {}, pero el tuyo es plano, {}: sin axis, np.sort ordena "
                     "todo junto; ordena cada fila con axis=1.",
        "not_array": "Con {} se esperaba un array de NumPy de forma {}, pero tu función devolvió {}.",
        "lists": "Con {} se esperaba un array de NumPy de forma {}, pero tu función devolvió una lista de {} listas: "
                 "sorted() da listas de Python; np.sort(X, axis=1) ordena cada fila y devuelve un array.",
        "wrong_shape": "Con {} se esperaba forma {}, pero tu array tiene forma {}.",
        "wrong": "Con {} la forma es la buena, pero los dígitos no: {}",
        "axis_zero": "ordenaste cada columna (axis=0), es decir, entre secuencias distintas; cada secuencia es una "
                     "fila: axis=1.",
        "argsort": "np.argsort da las posiciones de los dígitos en orden, no los dígitos; usa np.sort.",
        "descending": "ordenaste de mayor a menor; el objetivo va de menor a mayor.",
        "unsorted": "devolviste la entrada sin ordenar.",
        "other": "compara la primera fila de tu resultado con sorted(X[0]).",
    },
    "en": {
        "case": "{} sequences of {} digits",
        "case_one": "{} sequence of {} digits",
        "in_place": "For {}, your function sorted X in place (X.sort(...)), so the input data are no longer what they "
                    "were; use np.sort(X, axis=1), which returns a new array.",
        "flattened": "For {}, an array of shape {} was expected, but yours is flat, {}: without axis, np.sort sorts "
                     "everything together; sort each row with axis=1.",
        "not_array": "For {}, a NumPy array of shape {} was expected, but your function returned {}.",
        "lists": "For {}, a NumPy array of shape {} was expected, but your function returned a list of {} lists: "
                 "sorted() gives Python lists; np.sort(X, axis=1) sorts every row and returns an array.",
        "wrong_shape": "For {}, shape {} was expected, but your array has shape {}.",
        "wrong": "For {}, the shape is right, but the digits are not: {}",
        "axis_zero": "you sorted each column (axis=0), that is, across different sequences; each sequence is a row: "
                     "axis=1.",
        "argsort": "np.argsort gives the positions of the digits in order, not the digits; use np.sort.",
        "descending": "you sorted from largest to smallest; the target goes from smallest to largest.",
        "unsorted": "you returned the input unsorted.",
        "other": "compare the first row of your result with sorted(X[0]).",
    },
    "uk": {
        "case": "X форми ({}, {})",
        "case_one": "X форми ({}, {})",
        "in_place": "Для {} ваша функція відсортувала X на місці (X.sort(...)), і вхідні дані вже не ті, що були; "
                    "скористайтеся np.sort(X, axis=1), що повертає новий масив.",
        "flattened": "Для {} очікувався масив форми {}, а ваш плаский, {}: без axis np.sort сортує все разом; "
                     "сортуйте кожен рядок, axis=1.",
        "not_array": "Для {} очікувався масив NumPy форми {}, але ваша функція повернула {}.",
        "lists": "Для {} очікувався масив NumPy форми {}, але ваша функція повернула список із {} списків: sorted() "
                 "дає списки Python; np.sort(X, axis=1) сортує кожен рядок і повертає масив.",
        "wrong_shape": "Для {} очікувалася форма {}, але ваш масив має форму {}.",
        "wrong": "Для {} форма правильна, а цифри ні: {}",
        "axis_zero": "ви відсортували кожен стовпець (axis=0), тобто змішали різні послідовності; кожна "
                     "послідовність — це рядок: axis=1.",
        "argsort": "np.argsort дає позиції цифр у порядку зростання, а не самі цифри; скористайтеся np.sort.",
        "descending": "ви відсортували від більшого до меншого, а ціль іде від меншого до більшого.",
        "unsorted": "ви повернули вхід невідсортованим.",
        "other": "порівняйте перший рядок свого результату з sorted(X[0]).",
    },
})


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    return run_cases(function, CASES, _check_case)


def _check_case(function, N, T, seed):
    """Compare the learner's targets with the sorted sequences; a passed or failed result."""
    X = np.random.default_rng(seed).integers(0, 10, size=(N, T))
    case = SENTENCES.say("case_one" if N == 1 else "case", N, T)  # "1 sequence", not "1 sequences"
    value, problem = call(function, (X,), case)
    if problem and problem == modified(case):
        problem = SENTENCES.say("in_place", case)
    expected = reference(X)
    if problem is None and isinstance(value, np.ndarray) and value.shape == (N * T,):
        problem = SENTENCES.say("flattened", case, expected.shape, value.shape)
    if problem is None and isinstance(value, list) and value and all(isinstance(row, list) for row in value):
        problem = SENTENCES.say("lists", case, expected.shape, len(value))
    if problem is None and not isinstance(value, np.ndarray):
        problem = SENTENCES.say("not_array", case, expected.shape, SAY.now.describe(value))
    if problem is None and value.shape != expected.shape:
        problem = SENTENCES.say("wrong_shape", case, expected.shape, value.shape)
    if problem is None and not np.array_equal(value, expected):
        problem = SENTENCES.say("wrong", case, _mistake(value, X))
    return SAY.verdict(problem, case)


def _mistake(value, X):
    """The usual mistake that gives `value`, as the end of a sentence, or a hint to look at one row."""
    variants = (
        (np.sort(X, axis=0), "axis_zero"),
        (np.argsort(X, axis=1), "argsort"),
        (np.sort(X, axis=1)[:, ::-1], "descending"),
        (X, "unsorted"),
    )
    return SENTENCES.say(rebuilt(value, variants) or "other")
