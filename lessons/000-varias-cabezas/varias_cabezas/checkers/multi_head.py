"""Checker for lesson 000's challenge: multi_head(X, Wq, Wk, Wv, Wo, h) -> (salida, A).

Runs the learner's function on several shapes (h = 1, h = d_model, T = 1, T
different from d_model), compares with course.attention.multi_head and, when
something differs, rebuilds the usual mistakes to name the one that was made.
Every message is one Spanish sentence: what was expected, what came back, a hint.
"""

import numpy as np

from course.attention import multi_head as reference
from course.checkers.common import Phrasebook, run_cases, shape
from course.numbers import number

FUNCTION = "multi_head"
CASES = (  # (T, d_model, h, seed)
    (4, 8, 2, 1),
    (1, 6, 3, 2),
    (5, 4, 1, 3),
    (3, 4, 4, 4),
    (7, 6, 2, 5),
    (2, 12, 3, 6),
)
TOLERANCE = 1e-6
INPUT_NAMES = ("X", "Wq", "Wk", "Wv", "Wo")

SAY = Phrasebook(
    "es", signature="X, Wq, Wk, Wv, Wo, h", pair="(salida, A)", ending="salida, A",
    advice="usa, por ejemplo, «Wq / np.sqrt(d_k)» en vez de «Wq /= ...»",
    shapes="comprueba las formas: cada cabeza toma un bloque de columnas, W[:, i*d_k:(i+1)*d_k], no de filas.",
    finite="resta el máximo de cada fila antes de np.exp para que el softmax no se desborde")
MESSAGES = SAY.messages()


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    return run_cases(function, CASES, _check_case)


def _check_case(function, T, d_model, h, seed):
    """Run one case and compare it with the reference; a passed or failed result."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(T, d_model))
    weights = [0.6 * rng.normal(size=(d_model, d_model)) for _ in range(4)]
    inputs = [X] + weights
    case = "T={}, d_model={}, h={}".format(T, d_model, h)
    return SAY.judge(function, inputs, case, INPUT_NAMES, lambda pair: _check_pair(pair, inputs, h, case), extra=(h,))


def _check_pair(returned, inputs, h, case):
    """The first problem with the pair that came back, as a sentence, or None."""
    expected_out, expected_maps = reference(*inputs, h)
    out, maps = returned
    T, d_model = expected_out.shape
    if shape(out) == (h, T, T) and shape(maps) == (T, d_model) and (h, T, T) != (T, d_model):
        return ("Con {} se esperaba (salida, A) en ese orden, pero devolviste primero los mapas y después la "
                "salida; cambia el orden en el return.".format(case))
    problem = SAY.array_problem("salida", out, (T, d_model), case)
    if problem is None:
        problem = _check_maps(maps, h, T, case)
    if problem is not None:
        if shape(out) == (T, d_model // h) and "salida" in problem:
            problem = problem[:-1] + "; ¿promediaste o sumaste las cabezas? Concatena con np.concatenate(..., axis=1)."
        return problem
    maps = np.asarray(maps, dtype=float)
    if not np.allclose(maps, expected_maps, atol=TOLERANCE):
        return _explain_maps(maps, expected_maps, inputs, h, case)
    if not np.allclose(out, expected_out, atol=TOLERANCE):
        return _explain_output(np.asarray(out, dtype=float), expected_out, inputs, h, case)
    return None


def _check_maps(maps, h, T, case):
    """A sentence if the maps are not one (h, T, T) array whose rows add up to 1, else None."""
    if isinstance(maps, (list, tuple)) and len(maps) == h and all(shape(each) == (T, T) for each in maps):
        return ("Con {} se esperaba A como un único array de forma {}, pero devolviste una lista de {} mapas; "
                "apílalos con np.stack(mapas).".format(case, (h, T, T), h))
    if isinstance(maps, np.ndarray) and maps.shape != (h, T, T) and sorted(maps.shape) == sorted((h, T, T)):
        return ("Con {} se esperaba A de forma (h, T, T) = {}, pero tiene forma {}; apila los mapas sobre el primer "
                "eje con np.stack(mapas) (axis=0).".format(case, (h, T, T), maps.shape))
    problem = SAY.array_problem("A", maps, (h, T, T), case)
    if problem is not None:
        return problem
    sums = maps.sum(axis=-1)
    if not np.allclose(sums, 1.0, atol=1e-6):
        head, row = np.unravel_index(np.abs(sums - 1.0).argmax(), sums.shape)
        return ("Con {} cada fila de cada mapa debía sumar 1, pero la fila {} de la cabeza {} suma {}; aplica "
                "el softmax a lo largo de cada fila (axis=-1).".format(case, row, head + 1, number(float(sums[head, row]), ".3f")))
    return None


def _explain_maps(maps, expected, inputs, h, case):
    """Name the mistake that produces these maps, or point at the likely places."""
    head = int(np.abs(maps - expected).max(axis=(1, 2)).argmax())
    hint = "revisa que la cabeza i use las columnas i·d_k … (i+1)·d_k de Wq y Wk (W[:, bloque]) y divida entre √d_k"
    d_model = inputs[0].shape[1]
    variants = [  # the usual mistakes, rebuilt with the reference, and the hint that names each
        ({"scale": 1.0}, "falta dividir las puntuaciones entre √d_k antes del softmax"),
        ({"scale": np.sqrt(d_model)}, "dividiste entre √d_model; cada cabeza compara en d_k = d_model // h "
                                      "coordenadas, así que divide entre √d_k"),
    ]
    for keywords, named in variants:
        if np.allclose(maps, reference(*inputs, h, **keywords)[1], atol=TOLERANCE):
            hint = named
            break
    return ("Con {} el mapa de la cabeza {} no es el esperado (difiere hasta en {}); {}.".format(
        case, head + 1, number(float(np.abs(maps - expected).max()), ".3g"), hint))


def _explain_output(out, expected, inputs, h, case):
    """Name the mistake in an output whose maps are right: Wo forgotten, or the heads joined wrongly."""
    hint = "revisa que concatenes las salidas de las cabezas por columnas, en orden, y multipliques por Wo"
    joined, _ = reference(*inputs, h, project=False)
    if np.allclose(out, joined, atol=TOLERANCE):
        hint = "olvidaste multiplicar la concatenación por Wo al final"
    return ("Con {} los mapas están bien pero la salida no (difiere hasta en {}); {}.".format(
        case, number(float(np.abs(out - expected).max()), ".3g"), hint))
