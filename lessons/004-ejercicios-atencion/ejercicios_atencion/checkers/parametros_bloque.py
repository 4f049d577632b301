"""Checker for lesson 004's exercise 4: parametros_bloque(d_modelo, cabezas, d_mlp) -> int
(English and Ukrainian editions: block_parameters(d_model, heads, d_mlp)).

The expected count is the toolkit's own: course.nn.layers.TransformerBlock(...).count(),
so the exercise and the library can never disagree, for any sizes. When the learner's
number differs, the usual counting mistakes are rebuilt to name the one that was made.
"""

import numpy as np

from course.checkers.common import run_cases
from course.nn.layers import TransformerBlock
from course.numbers import number

from ..corrector import Sentences, call, integer_problem, phrasebooks, rebuilt

FUNCTION = {"es": "parametros_bloque", "en": "block_parameters", "uk": "block_parameters"}
CASES = ((128, 8, 512), (4, 2, 6), (6, 3, 10), (10, 5, 7), (16, 1, 16), (12, 4, 40))  # (d_modelo, cabezas, d_mlp)
SAY = phrasebooks({"es": "d_modelo, cabezas, d_mlp", "en": "d_model, heads, d_mlp",
                   "uk": "d_model, heads, d_mlp"},
                  {"es": "atencion + mlp + normalizaciones", "en": "attention + mlp + norms",
                   "uk": "attention + mlp + norms"})
MESSAGES = SAY.messages()
SENTENCES = Sentences({
    "es": {
        "case": "d_modelo={}, cabezas={}, d_mlp={}",
        "wrong": "Con {} el bloque tiene {} parámetros, pero tu función devolvió {}; {}",
        "no_attention_biases": "faltan 4 · d_modelo parámetros: los sesgos de la atención (cada una de las cuatro "
                               "matrices lleva uno de d_modelo números) o las dos normalizaciones.",
        "no_mlp_biases": "faltan los sesgos del MLP: d_mlp en la primera capa y d_modelo en la segunda.",
        "mlp_four_times": "el MLP tiene la anchura que recibe la función, d_mlp, y no siempre 4 · d_modelo.",
        "norms_scale_only": "sólo cuentas la mitad de las normalizaciones: son dos, y cada una tiene escala y "
                            "desplazamiento, 2 · d_modelo cada una.",
        "three_matrices": "falta la matriz de salida de la atención: son cuatro (consultas, claves, valores y "
                          "salida), no tres.",
        "times_heads": "multiplicaste la atención por el número de cabezas; las cabezas se reparten las mismas "
                       "cuatro matrices, no añaden ninguna.",
        "head_width_matrices": "cada matriz de la atención es de d_modelo × d_modelo; las cabezas cortan su salida "
                               "en trozos, pero la matriz entera está una sola vez.",
        "one_mlp_layer": "el MLP tiene dos capas lineales, d_modelo → d_mlp y d_mlp → d_modelo; falta la segunda.",
        "square_mlp": "el MLP no es de d_modelo × d_modelo: su capa intermedia tiene anchura d_mlp.",
        "other": "cuenta por partes (atención, MLP y normalizaciones) y compara cada parte con count() de los hijos "
                 "del bloque.",
    },
    "en": {
        "case": "d_model={}, heads={}, d_mlp={}",
        "wrong": "For {}, the block has {} parameters, but your function returned {}; {}",
        "no_attention_biases": "4 · d_model parameters are missing: the attention's biases (each of its four "
                               "matrices has one of d_model numbers) or the two layer norms.",
        "no_mlp_biases": "the MLP's biases are missing: d_mlp in the first layer and d_model in the second.",
        "mlp_four_times": "the MLP has the width the function receives, d_mlp, not always 4 · d_model.",
        "norms_scale_only": "you count only half of the layer norms: there are two, and each has a scale and a "
                            "shift, 2 · d_model each.",
        "three_matrices": "the attention's output matrix is missing: there are four (queries, keys, values and "
                          "output), not three.",
        "times_heads": "you multiplied the attention by the number of heads; the heads share the same four "
                       "matrices and add none.",
        "head_width_matrices": "each attention matrix is d_model × d_model; the heads cut its output into pieces, "
                               "but the whole matrix is there only once.",
        "one_mlp_layer": "the MLP has two linear layers, d_model → d_mlp and d_mlp → d_model; the second is "
                         "missing.",
        "square_mlp": "the MLP is not d_model × d_model: its middle layer has width d_mlp.",
        "other": "count part by part (attention, MLP and layer norms) and compare each part with count() of the "
                 "block's children.",
    },
    "uk": {
        "case": "d_model={}, heads={}, d_mlp={}",
        "wrong": "Для {} кількість параметрів блоку — {}, але ваша функція повернула {}; {}",
        "no_attention_biases": "бракує 4 · d_model параметрів: зсувів уваги (кожна з її чотирьох матриць має зсув "
                               "із d_model чисел) або двох нормалізацій шару.",
        "no_mlp_biases": "бракує зсувів MLP: d_mlp у першому шарі і d_model у другому.",
        "mlp_four_times": "MLP має ту ширину, яку отримує функція, d_mlp, а не завжди 4 · d_model.",
        "norms_scale_only": "ви рахуєте лише половину нормалізацій шару: їх дві, і кожна має масштаб і зсув, по "
                            "2 · d_model на кожну.",
        "three_matrices": "бракує вихідної матриці уваги: матриць чотири (запити, ключі, значення й вихід), а не "
                          "три.",
        "times_heads": "ви помножили увагу на кількість голів, а голови ділять між собою ті самі чотири матриці й "
                       "не додають жодної.",
        "head_width_matrices": "кожна матриця уваги має розмір d_model × d_model; голови ріжуть її вихід на "
                               "шматки, але вся матриця є лише один раз.",
        "one_mlp_layer": "MLP має два лінійні шари, d_model → d_mlp і d_mlp → d_model; другого бракує.",
        "square_mlp": "MLP не має розміру d_model × d_model: його проміжний шар має ширину d_mlp.",
        "other": "рахуйте частинами (увага, MLP і нормалізації шару) і порівняйте кожну частину з count() "
                 "дочірніх частин блоку.",
    },
})


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    return run_cases(function, CASES, _check_case)


def reference(d, h, m):
    """The toolkit's count of a block with these sizes."""
    return TransformerBlock(d, h, m, np.random.default_rng(0)).count()


def _check_case(function, d, h, m):
    """Compare the learner's count with the toolkit's for one size; a passed or failed result."""
    case = SENTENCES.say("case", d, h, m)
    value, problem = call(function, (d, h, m), case)
    problem = problem or integer_problem(value, case, SAY.now)
    expected = reference(d, h, m)
    if problem is None and value != expected:
        problem = SENTENCES.say("wrong", case, number(expected), number(value), _mistake(value, d, h, m))
    return SAY.verdict(problem, case)


def _mistake(value, d, h, m):
    """The usual mistake that gives `value`, as the end of a sentence, or a hint to recount by parts."""
    attention, mlp, norms = 4 * d * d + 4 * d, d * m + m + m * d + d, 4 * d
    variants = (
        (4 * d * d + mlp + norms, "no_attention_biases"),
        (attention + 2 * d * m + norms, "no_mlp_biases"),
        (attention + 8 * d * d + 5 * d + norms, "mlp_four_times"),
        (attention + mlp + 2 * d, "norms_scale_only"),
        (3 * d * d + 3 * d + mlp + norms, "three_matrices"),
        (h * attention + mlp + norms, "times_heads"),
        (4 * (d // h) * (d // h) + 4 * d + mlp + norms, "head_width_matrices"),
        (attention + d * m + m + norms, "one_mlp_layer"),
        (attention + 2 * (d * d + d) + norms, "square_mlp"),
    )
    return SENTENCES.say(rebuilt(value, variants) or "other")
