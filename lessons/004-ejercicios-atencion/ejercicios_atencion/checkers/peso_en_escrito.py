"""Checker for lesson 004's mini-project gap: peso_en_escrito(mapas, entrada, escritos) -> (N, T)
(English and Ukrainian editions: weight_on_written(maps, inputs, written)).

Maps are random rows that sum to 1, digits repeat inside a sequence (so a row's digit
sits in several columns) and sequences differ in length between cases. Each usual
mistake (comparing the wrong axes, averaging everything, looking only at the own
position, only at the strongest column or only at the first column with the digit) is rebuilt to name the one that was made.
"""

import numpy as np

from course.attention import softmax
from course.checkers.common import run_cases

from ..corrector import Sentences, call, phrasebooks, rebuilt
from ..miniproyecto import peso_en_escrito as reference

FUNCTION = {"es": "peso_en_escrito", "en": "weight_on_written", "uk": "weight_on_written"}
CASES = ((4, 8, 1), (2, 5, 2), (6, 3, 3), (1, 8, 4), (10, 6, 5), (3, 4, 6))  # (sequences, length, seed)
TOLERANCE = 1e-9
SAY = phrasebooks({"es": "mapas, entrada, escritos", "en": "maps, inputs, written",
                   "uk": "maps, inputs, written"}, {"es": "peso", "en": "weight", "uk": "weight"})
MESSAGES = SAY.messages()
SENTENCES = Sentences({
    "es": {
        "case": "{} secuencias de {} dígitos",
        "case_one": "{} secuencia de {} dígitos",
        "result": "el resultado",
        "one_number": "Con {} se esperaba un peso por fila de cada secuencia, forma {}, pero tu función devolvió un "
                      "solo número; no hagas la media: la celda la hace después.",
        "wrong": "Con {} la forma es la buena, pero los pesos no: {}",
        "axes_swapped": "comparaste los ejes al revés: la fila es el dígito escrito y la columna, el dígito de la "
                        "entrada (entrada[:, None, :] == escritos[:, :, None]).",
        "sum_over_rows": "sumaste por columnas (axis=1); el peso de una fila se suma a lo largo de sus columnas, "
                         "axis=-1.",
        "own_position": "sólo miraste la columna de la propia posición; el dígito escrito puede estar en cualquier "
                        "columna de la entrada.",
        "strongest_only": "sumaste sólo la casilla más fuerte; hay que sumar todas las columnas que tienen ese "
                          "dígito.",
        "first_match": "tomaste sólo la primera columna que tiene el dígito (¿un argmax o un break?); cuando el "
                       "dígito se repite en la entrada, suma el peso de todas sus columnas.",
        "counts_columns": "contaste las columnas que tienen el dígito, sin su peso; multiplica por los mapas antes de "
                          "sumar.",
        "other": "calcula a mano la fila 0 de la secuencia 0 y compárala con la tuya.",
    },
    "en": {
        "case": "{} sequences of {} digits",
        "case_one": "{} sequence of {} digits",
        "result": "the result",
        "one_number": "For {}, one weight per row of each sequence was expected, shape {}, but your function returned "
                      "a single number; do not take the mean: the cell does that afterwards.",
        "wrong": "For {}, the shape is right, but the weights are not: {}",
        "axes_swapped": "you compared the axes the wrong way round: the row is the written digit and the column the "
                        "input digit (inputs[:, None, :] == written[:, :, None]).",
        "sum_over_rows": "you summed down the columns (axis=1); a row's weight is summed along its columns, axis=-1.",
        "own_position": "you looked only at the column of the row's own position; the written digit can be in any "
                        "column of the input.",
        "strongest_only": "you added only the strongest square; add every column that holds that digit.",
        "first_match": "you took only the first column that holds the digit (an argmax, or a break?); when the digit "
                       "repeats in the input, add the weight of every column that holds it.",
        "counts_columns": "you counted the columns that hold the digit, without their weight; multiply by the maps "
                          "before summing.",
        "other": "work out row 0 of sequence 0 by hand and compare it with yours.",
    },
    "uk": {
        "case": "inputs форми ({}, {})",
        "case_one": "inputs форми ({}, {})",
        "result": "результат",
        "one_number": "Для {} очікувалася одна вага на кожен рядок кожної послідовності, форма {}, але ваша функція "
                      "повернула одне число; не беріть середнього: його бере комірка потім.",
        "wrong": "Для {} форма правильна, а ваги ні: {}",
        "axes_swapped": "ви порівняли осі навпаки: рядок — це записана цифра, а стовпець — цифра входу "
                        "(inputs[:, None, :] == written[:, :, None]).",
        "sum_over_rows": "ви підсумували вздовж стовпця (axis=1), а вагу рядка сумують уздовж його стовпців, "
                         "axis=-1.",
        "own_position": "ви дивилися лише на стовпець власної позиції рядка, а записана цифра може стояти в "
                        "будь-якому стовпці входу.",
        "strongest_only": "ви додали лише найсильнішу клітину мапи, а треба додати всі стовпці з цією цифрою.",
        "first_match": "ви взяли лише перший стовпець із цією цифрою (argmax чи break?); коли цифра повторюється у "
                       "вході, додайте вагу всіх стовпців, де вона стоїть.",
        "counts_columns": "ви порахували стовпці з цією цифрою без їхньої ваги; помножте на мапи перед тим, як "
                          "сумувати.",
        "other": "обчисліть рядок 0 послідовності 0 вручну і порівняйте зі своїм.",
    },
})


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    return run_cases(function, CASES, _check_case)


def _check_case(function, N, T, seed):
    """Compare the learner's measure with the reference on random maps; a passed or failed result."""
    rng = np.random.default_rng(seed)
    mapas = softmax(3 * rng.normal(size=(N, T, T)))   # each row sums to 1
    entrada = rng.integers(0, 4, size=(N, T))           # few digits, so they repeat
    escritos = np.sort(entrada, axis=1)
    case = SENTENCES.say("case_one" if N == 1 else "case", N, T)  # "1 sequence", not "1 sequences"
    value, problem = call(function, (mapas, entrada, escritos), case)
    expected = reference(mapas, entrada, escritos)
    if problem is None and np.ndim(value) == 0 and not isinstance(value, (str, type(None))):
        problem = SENTENCES.say("one_number", case, expected.shape)
    problem = problem or SAY.now.array_problem(SENTENCES.say("result"), value, expected.shape, case)
    if problem is None and not np.allclose(value, expected, atol=TOLERANCE):
        problem = SENTENCES.say("wrong", case, _mistake(value, mapas, entrada, escritos))
    return SAY.verdict(problem, case)


def _mistake(value, mapas, entrada, escritos):
    """The usual mistake that gives `value`, as the end of a sentence, or a hint to check one row by hand."""
    mismo = entrada[:, None, :] == escritos[:, :, None]
    strongest = np.take_along_axis(mapas, mapas.argmax(axis=-1)[..., None], axis=-1)[..., 0]
    variants = (
        ((mapas * (entrada[:, :, None] == escritos[:, None, :])).sum(axis=-1), "axes_swapped"),
        ((mapas * mismo).sum(axis=1), "sum_over_rows"),
        (np.diagonal(mapas, axis1=1, axis2=2) * (entrada == escritos), "own_position"),
        (strongest * mismo.any(axis=-1), "strongest_only"),
        (mismo.sum(axis=-1).astype(float), "counts_columns"),
        (np.take_along_axis(mapas, mismo.argmax(axis=-1)[..., None], axis=-1)[..., 0] * mismo.any(axis=-1),
         "first_match"),
    )
    return SENTENCES.say(rebuilt(value, variants) or "other")
