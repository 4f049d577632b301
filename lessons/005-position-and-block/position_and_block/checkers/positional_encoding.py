"""Checker for positional_encoding(n_positions, d_model) -> (n_positions, d_model), the sinusoidal table.

Row t, columns 2i and 2i + 1: sin(t / 10000^(2i/d_model)) and cos(t / 10000^(2i/d_model)), for t
counted from 0; an odd d_model ends with one sine column. The cases include an odd width, a width of
2 and a long table. When the table differs, the usual mistakes are rebuilt and the one that matches
is named in one sentence.
"""

import numpy as np

from course.checkers.common import fail
from course.numbers import current_language, number

from .shared import call, messages, passed, phrasebook

FUNCTION = "positional_encoding"
SIGNATURE = "n_positions, d_model"
CASES = ((4, 8), (1, 6), (10, 2), (50, 16), (7, 5), (3, 1))  # (n_positions, d_model); odd widths come last
TOLERANCE = 1e-6
WORDS = {
    "en": {
        "name": "the table",
        "shapes": "build the table as np.zeros((n_positions, d_model)) and fill its even and odd columns.",
        "finite": "the exponent is 2i / d_model with i counting pairs of columns, so every rate is at most 1",
        "odd": "when d_model is odd there is one more sine column than cosine columns; give the cosines only the "
               "first d_model // 2 rates, the slice [:d_model // 2] of the array of rates",
        "transposed": "For {case} the table was expected with one row per position, shape {shape}, but its shape is "
                      "{actual}; put positions on the rows and coordinates on the columns.",
        "differs": "For {case} the table is not the expected one (row {row}, column {col}: {value} instead of "
                   "{expected}); {hint}.",
        "generic": "check that column 2i holds sin(t / 10000^(2i/d_model)) and column 2i + 1 the cosine of the same "
                   "angle, with t counted from 0",
        "swapped": "you put the cosines in the even columns and the sines in the odd ones; column 2i takes sin and "
                   "column 2i + 1 takes cos",
        "from_one": "your positions start at 1; the first row is position 0, whose row is 0, 1, 0, 1, …",
        "base": "the angles do not shrink at the paper's pace; the rates are 1 / 10000^(2i/d_model), with base "
                "10000",
        "no_two": "you divided i by d_model, not 2i; the exponent 2i/d_model counts columns, so it reaches "
                  "almost 1 at the last pair",
        "per_column": "each column got its own rate; the sine and cosine of one pair share a rate, "
                      "10000^(-2i/d_model) for columns 2i and 2i + 1",
        "halves": "you put all the sines in the first half and all the cosines in the second; they alternate, "
                  "sin in column 2i and cos in column 2i + 1",
        "degrees": "your angles are in degrees; np.sin and np.cos take radians, so use t · rate directly",
    },
    "es": {
        "name": "la tabla",
        "shapes": "construye la tabla con np.zeros((n_positions, d_model)) y rellena sus columnas pares e impares.",
        "finite": "el exponente es 2i / d_model, con i contando parejas de columnas, así que ninguna frecuencia pasa de 1",
        "odd": "cuando d_model es impar hay una columna de senos más que de cosenos; da a los cosenos sólo las "
               "primeras d_model // 2 frecuencias, el corte [:d_model // 2] del array de frecuencias",
        "transposed": "Con {case} se esperaba la tabla con una fila por posición, de forma {shape}, pero tiene forma "
                      "{actual}; pon las posiciones en las filas y las coordenadas en las columnas.",
        "differs": "Con {case} la tabla no es la esperada (fila {row}, columna {col}: {value} en vez de {expected}); "
                   "{hint}.",
        "generic": "comprueba que la columna 2i tenga sin(t / 10000^(2i/d_model)) y la columna 2i + 1 el coseno del "
                   "mismo ángulo, con t contado desde 0",
        "swapped": "pusiste los cosenos en las columnas pares y los senos en las impares; la columna 2i lleva sin y "
                   "la 2i + 1 lleva cos",
        "from_one": "tus posiciones empiezan en 1; la primera fila es la posición 0, cuya fila es 0, 1, 0, 1, …",
        "base": "los ángulos no se encogen como en el artículo; las frecuencias son 1 / 10000^(2i/d_model), con "
                "base 10000",
        "no_two": "dividiste i entre d_model, no 2i; el exponente 2i/d_model cuenta columnas, así que llega casi a 1 "
                  "en la última pareja",
        "per_column": "cada columna recibió su propia frecuencia; el seno y el coseno de una pareja la comparten, "
                      "10000^(-2i/d_model) para las columnas 2i y 2i + 1",
        "halves": "pusiste todos los senos en la primera mitad y todos los cosenos en la segunda; se alternan, sin en "
                  "la columna 2i y cos en la 2i + 1",
        "degrees": "tus ángulos están en grados; np.sin y np.cos toman radianes, así que usa t · frecuencia "
                   "directamente",
    },
    "uk": {
        "name": "таблиця",
        "shapes": "створіть таблицю як np.zeros((n_positions, d_model)) і заповніть її парні й непарні стовпці.",
        "finite": "показник степеня — 2i / d_model, де i лічить пари стовпців, тож жодна частота не перевищує 1",
        "odd": "коли d_model непарне, стовпців із синусами на один більше, ніж із косинусами; дайте косинусам лише "
               "перші d_model // 2 частот, тобто зріз [:d_model // 2] масиву частот",
        "transposed": "Для {case} очікувалася таблиця з рядком на кожну позицію, форми {shape}, а її форма {actual}; "
                      "покладіть позиції в рядки, а координати в стовпці.",
        "differs": "Для {case} таблиця не та, що очікувалася (рядок {row}, стовпець {col}: {value} замість "
                   "{expected}); {hint}.",
        "generic": "перевірте, що стовпець 2i містить sin(t / 10000^(2i/d_model)), а стовпець 2i + 1 — косинус того "
                   "самого кута, з t від 0",
        "swapped": "ви поклали косинуси в парні стовпці, а синуси в непарні; стовпець 2i бере sin, а 2i + 1 — cos",
        "from_one": "ваші позиції починаються з 1; перший рядок — це позиція 0, і він дорівнює 0, 1, 0, 1, …",
        "base": "кути зменшуються не в тому темпі, що у статті; частоти — 1 / 10000^(2i/d_model), з основою 10000",
        "no_two": "ви поділили на d_model саме i, а не 2i; показник 2i/d_model лічить стовпці, тож на останній парі "
                  "він майже доходить до 1",
        "per_column": "кожен стовпець отримав свою частоту; синус і косинус однієї пари мають спільну, "
                      "10000^(-2i/d_model) для стовпців 2i та 2i + 1",
        "halves": "ви поклали всі синуси в першу половину, а всі косинуси в другу; вони чергуються: sin у стовпці 2i, "
                  "cos у 2i + 1",
        "degrees": "ваші кути в градусах; np.sin і np.cos приймають радіани, тож беріть t · частоту напряму",
    },
}


def reference(n_positions, d_model, mistake=None):
    """The sinusoidal table (float64), or the table a known mistake produces."""
    t = np.arange(n_positions, dtype=float)[:, None] + (1 if mistake == "from_one" else 0)  # (T, 1)
    base = 1000.0 if mistake == "base" else 10000.0
    pairs = np.arange(0, d_model, 2)  # 2i for every pair
    if mistake == "no_two":
        pairs = pairs / 2
    rates = 1.0 / base ** (pairs / d_model)  # (ceil(D/2),)
    if mistake == "per_column":
        every = 1.0 / base ** (np.arange(d_model) / d_model)  # (D,)
        angles = t * every
        table = np.where(np.arange(d_model) % 2 == 0, np.sin(angles), np.cos(angles))
        return table
    angles = t * rates  # (T, ceil(D/2))
    if mistake == "degrees":
        angles = np.radians(angles)
    first, second = (np.cos, np.sin) if mistake == "swapped" else (np.sin, np.cos)
    table = np.zeros((n_positions, d_model))
    if mistake == "halves":
        half = (d_model + 1) // 2
        table[:, :half] = first(angles)
        table[:, half:] = second(angles[:, : d_model // 2])
        return table
    table[:, 0::2] = first(angles)
    table[:, 1::2] = second(angles[:, : d_model // 2])
    return table


MISTAKES = ("swapped", "from_one", "base", "no_two", "per_column", "halves", "degrees")
MESSAGES = messages(SIGNATURE, "table", WORDS["en"]["shapes"], WORDS["en"]["finite"])


def word(name, **values):
    """This checker's sentence `name` in the page's language."""
    return WORDS[current_language()][name].format(**values)


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    results = []
    for n_positions, d_model in CASES:
        results.append(_check_case(function, n_positions, d_model))
        if not results[-1]["ok"]:
            break
    return results


def _raised_hint(d_model):
    """The hint for a call that raised: about odd widths when the width is odd."""
    def hint(error):
        if d_model % 2:
            return word("odd") + "."
        return word("shapes")
    return hint


def _check_case(function, n_positions, d_model):
    """Run one case and compare it with the reference."""
    case = "n_positions={}, d_model={}".format(n_positions, d_model)
    table, problem = call(function, (n_positions, d_model), (), case, _raised_hint(d_model))
    if problem:
        return fail(problem)
    say = phrasebook(SIGNATURE, "table", word("shapes"), word("finite"))
    expected = reference(n_positions, d_model)
    if getattr(table, "shape", None) == (d_model, n_positions) and d_model != n_positions:
        return fail(word("transposed", case=case, shape=expected.shape, actual=table.shape))
    problem = say.array_problem(word("name"), table, expected.shape, case)
    if problem:
        if d_model % 2 and str(expected.shape) in problem:
            problem = problem[:-1] + "; " + word("odd") + "."
        return fail(problem)
    if np.allclose(table, expected, atol=TOLERANCE):
        return passed(case)
    hint = word("generic")
    for mistake in MISTAKES:
        if np.allclose(table, reference(n_positions, d_model, mistake), atol=TOLERANCE):
            hint = word(mistake)
            break
    row, col = np.unravel_index(np.abs(table - expected).argmax(), expected.shape)
    return fail(word("differs", case=case, row=row, col=col, value=number(float(table[row, col]), ".4f"),
                     expected=number(float(expected[row, col]), ".4f"), hint=hint))
