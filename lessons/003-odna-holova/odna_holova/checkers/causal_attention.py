"""Checker for lesson 003's exercise: causal_attention(X, Wq, Wk, Wv) -> (H, A), output first as the course's
attention returns it (causal_head in the English edition, whose lesson 004 has its own causal_attention;
cabeza_causal in the Spanish one, apart from lesson 004's atencion_causal(Q, K, V)).

Runs the learner's function on several shapes (T = 1, d_k different from d and
from d_v, inputs large enough to overflow an unshifted exp), compares with a
reference and, when something differs, rebuilds the usual mistakes (mask after
the softmax, mask filled with 0, diagonal masked, wrong triangle, no or wrong
scaling, softmax over columns, no mask) to name the one that was made.
Every message is one sentence in the page's language (Ukrainian for lesson.md, English for
lesson.en.md, Spanish for lesson.es.md), chosen when it is written: what was expected, what came back, a hint.
"""

import numpy as np

from course.attention import softmax
from course.checkers.common import Phrasebook, run_cases, shape
from course.numbers import number

from ..language import phrases

FUNCTION = {"uk": "causal_attention", "en": "causal_head", "es": "cabeza_causal"}
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

TEXT = {  # every sentence of this checker, per edition of the lesson
    "uk": {
        "phrasebook": {"advice": "наприклад, «Q / np.sqrt(d_k)» замість «Q /= ...»",
                       "shapes": "перевірте форми: Q = X @ Wq має форму (T, d_k), а оцінки Q @ K.T — (T, T).",
                       "finite": "відніміть максимум кожного рядка перед np.exp"},
        "mistakes": {
            "after": "маску накладено вже після softmax, тож рядки не сумують до 1; заповніть майбутні оцінки значенням "
                     "-np.inf до softmax",
            "zero": "майбутні оцінки заповнено нулем, а exp(0) = 1 лишає їм частку; заповнюйте їх -np.inf",
            "past": "ви сховали минуле замість майбутнього; маскувати треба верхній трикутник, np.triu(..., k=1)",
            "none": "маски немає зовсім, кожна позиція бачить майбутнє; сховайте оцінки над діагоналлю перед softmax",
            "unscaled": "бракує ділення оцінок на √d_k перед softmax",
            "columns": "softmax узято вздовж стовпців (axis=0); нормуйте кожен рядок, axis=-1",
            "input_width": "ви поділили на √d (ширину X), а треба на √d_k, ширину запитів і ключів"},
        "case": "випадку T={}, d={}, d_k={}, d_v={}", "large": ", великі входи",
        "a_first": "Для {} очікувалося (H, A), спершу суміші, як повертає attention курсу, а ви повернули спершу ваги A; "
                   "поміняйте їх у return.",
        "mixes_x": "Для {} очікувалося H форми {}, а його форма {}: схоже, ви змішали рядки X, а не значення; "
                   "множте ваги на V = X @ Wv.",
        "mixtures": "Для {} ваги A правильні, а суміші H ні (різниця до {}); H = A @ V, де V = X @ Wv.",
        "diagonal": "Для {} перший рядок A складається з NaN: ви сховали й діагональ, і першій позиції не лишилося на що "
                    "дивитися; маскуйте лише над діагоналлю, np.triu(..., k=1).",
        "check": "перевірте маску (np.triu(..., k=1) і -np.inf до softmax) та ділення на √d_k, де d_k = Wk.shape[1]",
        "row": "Для {} рядок A[{}] не такий, як очікувалося (різниця до {}): {}.",
    },
    "en": {
        "phrasebook": {"advice": "for example “Q / np.sqrt(d_k)” instead of “Q /= ...”",
                       "shapes": "check the shapes: Q = X @ Wq has shape (T, d_k), and the scores Q @ K.T have shape "
                                 "(T, T).",
                       "finite": "subtract each row’s maximum before np.exp"},
        "mistakes": {
            "after": "the mask was applied after the softmax, so the rows no longer sum to 1; fill the future scores "
                     "with -np.inf before the softmax",
            "zero": "the future scores were filled with zero, and exp(0) = 1 still gives them a share; fill them with "
                    "-np.inf",
            "past": "you hid the past instead of the future; the mask belongs on the upper triangle, np.triu(..., k=1)",
            "none": "there is no mask at all, so every position sees the future; hide the scores above the diagonal "
                    "before the softmax",
            "unscaled": "the scores are not divided by √d_k before the softmax",
            "columns": "the softmax was taken along the columns (axis=0); normalize each row, axis=-1",
            "input_width": "you divided by √d (the width of X), but the divisor is √d_k, the width of the queries and "
                           "keys"},
        "case": "the case T={}, d={}, d_k={}, d_v={}", "large": ", large inputs",
        "a_first": "For {} (H, A) was expected, the mixtures first as the course's attention returns them, but you "
                   "returned the weights A first; swap them in the return.",
        "mixes_x": "For {} H was expected to have shape {}, but its shape is {}: it looks as if you mixed the rows of X "
                   "rather than the values; multiply the weights by V = X @ Wv.",
        "mixtures": "For {} the weights A are right but the mixtures H are not (they differ by up to {}); H = A @ V, "
                    "where V = X @ Wv.",
        "diagonal": "For {} the first row of A is all NaN: you hid the diagonal too, which leaves the first position "
                    "nothing to look at; mask only above the diagonal, np.triu(..., k=1).",
        "check": "check the mask (np.triu(..., k=1) and -np.inf before the softmax) and the division by √d_k, where "
                 "d_k = Wk.shape[1]",
        "row": "For {} the row A[{}] is not what was expected (it differs by up to {}): {}.",
    },
    "es": {
        "phrasebook": {"advice": "por ejemplo «Q / np.sqrt(d_k)» en lugar de «Q /= ...»",
                       "shapes": "revisa las formas: Q = X @ Wq tiene forma (T, d_k), y las puntuaciones Q @ K.T, "
                                 "(T, T).",
                       "finite": "resta el máximo de cada fila antes de np.exp"},
        "mistakes": {
            "after": "la máscara se aplicó después del softmax, y las filas ya no suman 1; rellena las puntuaciones "
                     "del futuro con -np.inf antes del softmax",
            "zero": "las puntuaciones del futuro se rellenaron con cero, y exp(0) = 1 todavía les da una parte; "
                    "rellénalas con -np.inf",
            "past": "ocultaste el pasado en lugar del futuro; la máscara va en el triángulo superior, "
                    "np.triu(..., k=1)",
            "none": "no hay ninguna máscara, así que cada posición ve el futuro; oculta las puntuaciones por encima "
                    "de la diagonal antes del softmax",
            "unscaled": "las puntuaciones no se dividen por √d_k antes del softmax",
            "columns": "el softmax se tomó a lo largo de las columnas (axis=0); normaliza cada fila, axis=-1",
            "input_width": "dividiste por √d (la anchura de X), pero el divisor es √d_k, la anchura de las consultas "
                           "y las claves"},
        "case": "T={}, d={}, d_k={}, d_v={}", "large": ", entradas grandes",
        "a_first": "Con {} se esperaba (H, A), primero las mezclas, como las devuelve attention del curso, pero "
                   "devolviste primero los pesos A; intercámbialos en el return.",
        "mixes_x": "Con {} se esperaba H de forma {}, pero su forma es {}: parece que mezclaste las filas de X y no "
                   "los valores; multiplica los pesos por V = X @ Wv.",
        "mixtures": "Con {} los pesos A están bien, pero las mezclas H no (difieren hasta en {}); H = A @ V, donde "
                    "V = X @ Wv.",
        "diagonal": "Con {} la primera fila de A es toda NaN: ocultaste también la diagonal, y la primera posición se "
                    "queda sin nada que mirar; enmascara sólo por encima de la diagonal, np.triu(..., k=1).",
        "check": "revisa la máscara (np.triu(..., k=1) y -np.inf antes del softmax) y la división por √d_k, donde "
                 "d_k = Wk.shape[1]",
        "row": "Con {} la fila A[{}] no es la esperada (difiere hasta en {}): {}.",
    },
}
BOOKS = {language: Phrasebook(language, signature="X, Wq, Wk, Wv", pair="(H, A)", ending="H, A", **text["phrasebook"])
         for language, text in TEXT.items()}
MESSAGES = {language: book.messages() for language, book in BOOKS.items()}


def _book():
    """The shared sentences in the page's language."""
    return phrases(BOOKS)


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
    return A @ V, A


MISTAKES = (  # (keywords for reference, the name of the hint in TEXT[language]["mistakes"])
    ({"after": True}, "after"),
    ({"fill": 0.0}, "zero"),
    ({"hide": "past"}, "past"),
    ({"hide": None}, "none"),
    ({"scale": 1.0}, "unscaled"),
    ({"axis": 0}, "columns"),
)


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    return run_cases(function, CASES, _check_case)


def _check_case(function, T, d, d_k, d_v, size, seed):
    """Run one case and compare it with the reference; a passed or failed result."""
    rng = np.random.default_rng(seed)
    inputs = [size * rng.normal(size=(T, d)), rng.normal(size=(d, d_k)), rng.normal(size=(d, d_k)),
              rng.normal(size=(d, d_v))]
    say = phrases(TEXT)
    case = say["case"].format(T, d, d_k, d_v) + (say["large"] if size > 1 else "")
    return _book().judge(function, inputs, case, INPUT_NAMES, lambda pair: _check_pair(pair, inputs, case))


def _check_pair(returned, inputs, case):
    """The first problem with the pair that came back, as a sentence, or None."""
    expected_H, expected_A = reference(*inputs)
    T, d_v = expected_H.shape
    H, A = returned
    say, book = phrases(TEXT), _book()
    if shape(H) == (T, T) and shape(A) == (T, d_v) and d_v != T:
        return say["a_first"].format(case)
    d = inputs[0].shape[1]
    if shape(A) == (T, T) and shape(H) == (T, d) and d != d_v:
        return say["mixes_x"].format(case, (T, d_v), (T, d))
    problem = book.array_problem("A", A, (T, T), case) or book.array_problem("H", H, (T, d_v), case)
    if problem:
        return problem if "NaN" not in problem else _explain_nan(A, inputs, case) or problem
    if not np.allclose(A, expected_A, atol=TOLERANCE):
        return _explain_weights(np.asarray(A, dtype=float), expected_A, inputs, case)
    if not np.allclose(H, expected_H, atol=TOLERANCE):
        return say["mixtures"].format(case, _number(np.abs(np.asarray(H, dtype=float) - expected_H).max()))
    return None


def _explain_nan(A, inputs, case):
    """A sentence for a NaN that comes from masking the diagonal (the first row has nothing left), or None."""
    if not isinstance(A, np.ndarray) or A.ndim != 2 or A.shape[0] == 0:
        return None
    _, diagonal = reference(*inputs, hide="diagonal")
    if np.all(np.isnan(A[0])) and np.allclose(A[1:], diagonal[1:], atol=TOLERANCE, equal_nan=True):
        return phrases(TEXT)["diagonal"].format(case)
    return None


def _explain_weights(A, expected, inputs, case):
    """Name the mistake that produces these weights, or point at the likely places."""
    row = int(np.abs(A - expected).max(axis=1).argmax())
    say = phrases(TEXT)
    hint = say["check"]
    d = inputs[0].shape[1]
    mistakes = MISTAKES + (({"scale": np.sqrt(d)}, "input_width"),)
    for keywords, named in mistakes:
        if np.allclose(A, reference(*inputs, **keywords)[1], atol=TOLERANCE):
            hint = say["mistakes"][named]
            break
    return say["row"].format(case, row, _number(np.abs(A[row] - expected[row]).max()), hint)


def _number(value):
    """A difference with three significant digits, in the page's digits (a decimal comma in Ukrainian)."""
    return number(float(value), ".3g")
