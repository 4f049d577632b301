"""Checker for lesson 004's exercise 4: parametros_bloque(d_modelo, cabezas, d_mlp) -> int.

The expected count is the toolkit's own: course.nn.layers.TransformerBlock(...).count(),
so the exercise and the library can never disagree, for any sizes. When the learner's
number differs, the usual counting mistakes are rebuilt to name the one that was made.
"""

import numpy as np

from course.nn.layers import TransformerBlock
from course.numbers import number

from ..corrector import call, integer_problem, phrasebook, rebuilt

FUNCTION = "parametros_bloque"
CASES = ((128, 8, 512), (4, 2, 6), (6, 3, 10), (10, 5, 7), (16, 1, 16), (12, 4, 40))  # (d_modelo, cabezas, d_mlp)
SAY = phrasebook("d_modelo, cabezas, d_mlp", "atencion + mlp + normalizaciones")
MESSAGES = SAY.messages()


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    results = []
    for d, h, m in CASES:
        results.append(_check_case(function, d, h, m))
        if not results[-1]["ok"]:
            break
    return results


def reference(d, h, m):
    """The toolkit's count of a block with these sizes."""
    return TransformerBlock(d, h, m, np.random.default_rng(0)).count()


def _check_case(function, d, h, m):
    """Compare the learner's count with the toolkit's for one size; a passed or failed result."""
    case = "d_modelo={}, cabezas={}, d_mlp={}".format(d, h, m)
    value, problem = call(function, (d, h, m), case)
    problem = problem or integer_problem(value, case, SAY)
    expected = reference(d, h, m)
    if problem is None and value != expected:
        problem = "Con {} el bloque tiene {} parámetros, pero tu función devolvió {}; {}".format(
            case, number(expected), number(value), _mistake(value, d, h, m))
    if problem:
        return {"ok": False, "message": problem}
    return {"ok": True, "message": MESSAGES["passed"].format(case=case)}


def _mistake(value, d, h, m):
    """The usual mistake that gives `value`, as the end of a sentence, or a hint to recount by parts."""
    attention, mlp, norms = 4 * d * d + 4 * d, d * m + m + m * d + d, 4 * d
    variants = (
        (4 * d * d + mlp + norms, "faltan 4 · d_modelo parámetros: los sesgos de la atención (cada una de las "
                                  "cuatro matrices lleva uno de d_modelo números) o las dos normalizaciones."),
        (attention + 2 * d * m + norms, "faltan los sesgos del MLP: d_mlp en la primera capa y d_modelo en la "
                                        "segunda."),
        (attention + 8 * d * d + 5 * d + norms, "el MLP tiene la anchura que recibe la función, d_mlp, y no "
                                                 "siempre 4 · d_modelo."),
        (attention + mlp + 2 * d, "sólo cuentas la mitad de las normalizaciones: son dos, y cada una tiene escala "
                                  "y desplazamiento, 2 · d_modelo cada una."),
        (3 * d * d + 3 * d + mlp + norms, "falta la matriz de salida de la atención: son cuatro (consultas, claves, "
                                          "valores y salida), no tres."),
        (h * attention + mlp + norms, "multiplicaste la atención por el número de cabezas; las cabezas se reparten "
                                      "las mismas cuatro matrices, no añaden ninguna."),
        (4 * (d // h) * (d // h) + 4 * d + mlp + norms, "cada matriz de la atención es de d_modelo × d_modelo; las "
                                                        "cabezas cortan su salida en trozos, pero la matriz entera "
                                                        "está una sola vez."),
        (attention + d * m + m + norms, "el MLP tiene dos capas lineales, d_modelo → d_mlp y d_mlp → d_modelo; "
                                        "falta la segunda."),
        (attention + 2 * (d * d + d) + norms, "el MLP no es de d_modelo × d_modelo: su capa intermedia tiene "
                                              "anchura d_mlp."),
    )
    return rebuilt(value, variants) or ("cuenta por partes (atención, MLP y normalizaciones) y compara cada parte "
                                        "con count() de los hijos del bloque.")
