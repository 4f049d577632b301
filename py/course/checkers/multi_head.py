"""Checker for lesson 000's challenge: multi_head(X, Wq, Wk, Wv, Wo, h) -> (salida, A).

Runs the learner's function on several shapes (h = 1, h = d_model, T = 1, T
different from d_model), compares with course.attention.multi_head and, when
something differs, rebuilds the usual mistakes to name the one that was made.
Every message is one Spanish sentence: what was expected, what came back, a hint.
"""

import numpy as np

from course.attention import multi_head as reference

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

MESSAGES = {
    "code_raised": "Tu código no llega a definir la función: al ejecutarlo salta {error}; corrige esa línea y vuelve a comprobar.",
    "no_function": "Se esperaba una función llamada {name}, pero tu código no la define; escribe «def {name}(X, Wq, Wk, Wv, Wo, h):».",
    "checker_failed": "El corrector falló por su cuenta ({error}); esto no es culpa tuya, avisa a quien mantiene el curso.",
    "passed": "Correcto con {case}.",
}


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    results = []
    for case in CASES:
        results.append(_check_case(function, *case))
        if not results[-1]["ok"]:
            break
    return results


def _check_case(function, T, d_model, h, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(T, d_model))
    weights = [0.6 * rng.normal(size=(d_model, d_model)) for _ in range(4)]
    inputs = [X] + weights
    copies = [array.copy() for array in inputs]
    case = "T={}, d_model={}, h={}".format(T, d_model, h)
    try:
        returned = function(*inputs, h)
    except Exception as error:  # the learner's bug, reported as a sentence
        return _fail("Con {} se esperaba la pareja (salida, A), pero tu función lanzó {}: {}; {}".format(
            case, type(error).__name__, error, _exception_hint(error)))
    for name, array, copy in zip(INPUT_NAMES, inputs, copies):
        if array.shape != copy.shape or not np.array_equal(array, copy):
            return _fail("Con {} tu función modificó {}, que debía quedar intacta; no escribas dentro de los "
                         "arrays que recibes (usa, por ejemplo, «Wq / np.sqrt(d_k)» en vez de «Wq /= ...»).".format(
                             case, name))
    expected_out, expected_maps = reference(X, *weights, h)
    problem = _check_pair(returned, expected_out, expected_maps, inputs, h, case)
    if problem:
        return _fail(problem)
    return {"ok": True, "message": MESSAGES["passed"].format(case=case)}


def _check_pair(returned, expected_out, expected_maps, inputs, h, case):
    """The first problem with what came back, as a sentence, or None."""
    if not isinstance(returned, (tuple, list)) or len(returned) != 2:
        return ("Con {} se esperaba la pareja (salida, A), pero tu función devolvió {}; termina con "
                "«return salida, A».".format(case, _describe(returned)))
    out, maps = returned
    T, d_model = expected_out.shape
    if _shape(out) == (h, T, T) and _shape(maps) == (T, d_model) and (h, T, T) != (T, d_model):
        return ("Con {} se esperaba (salida, A) en ese orden, pero devolviste primero los mapas y después la "
                "salida; cambia el orden en el return.".format(case))
    problem = _check_array("salida", out, (T, d_model), case)
    if problem is None:
        problem = _check_maps(maps, h, T, case)
    if problem is not None:
        if _shape(out) == (T, d_model // h) and "salida" in problem:
            problem = problem[:-1] + "; ¿promediaste o sumaste las cabezas? Concatena con np.concatenate(..., axis=1)."
        return problem
    maps = np.asarray(maps, dtype=float)
    if not np.allclose(maps, expected_maps, atol=TOLERANCE):
        return _explain_maps(maps, expected_maps, inputs, h, case)
    if not np.allclose(out, expected_out, atol=TOLERANCE):
        return _explain_output(np.asarray(out, dtype=float), expected_out, inputs, h, case)
    return None


def _check_array(name, value, shape, case):
    if not isinstance(value, np.ndarray):
        return "Con {} se esperaba que {} fuera un array de NumPy de forma {}, pero es {}; conviértelo con np.array(...).".format(
            case, name, shape, _describe(value))
    if value.shape != shape:
        return "Con {} se esperaba {} de forma {}, pero tiene forma {}.".format(case, name, shape, value.shape)
    if not np.issubdtype(value.dtype, np.floating):
        return "Con {} se esperaba {} con números reales (float), pero su tipo es {}; no redondees ni conviertas a enteros.".format(
            case, name, value.dtype)
    if not np.all(np.isfinite(value)):
        return ("Con {} el array {} contiene NaN o infinitos; resta el máximo de cada fila antes de np.exp para que el "
                "softmax no se desborde.".format(case, name))
    return None


def _check_maps(maps, h, T, case):
    if isinstance(maps, (list, tuple)) and len(maps) == h and all(_shape(each) == (T, T) for each in maps):
        return ("Con {} se esperaba A como un único array de forma {}, pero devolviste una lista de {} mapas; "
                "apílalos con np.stack(mapas).".format(case, (h, T, T), h))
    if isinstance(maps, np.ndarray) and maps.shape != (h, T, T) and sorted(maps.shape) == sorted((h, T, T)):
        return ("Con {} se esperaba A de forma (h, T, T) = {}, pero tiene forma {}; apila los mapas sobre el primer "
                "eje con np.stack(mapas) (axis=0).".format(case, (h, T, T), maps.shape))
    problem = _check_array("A", maps, (h, T, T), case)
    if problem is not None:
        return problem
    sums = maps.sum(axis=-1)
    if not np.allclose(sums, 1.0, atol=1e-6):
        head, row = np.unravel_index(np.abs(sums - 1.0).argmax(), sums.shape)
        return ("Con {} cada fila de cada mapa debía sumar 1, pero la fila {} de la cabeza {} suma {:.3f}; aplica "
                "el softmax a lo largo de cada fila (axis=-1).".format(case, row, head + 1, sums[head, row]))
    return None


def _explain_maps(maps, expected, inputs, h, case):
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
    return ("Con {} el mapa de la cabeza {} no es el esperado (difiere hasta en {:.3g}); {}.".format(
        case, head + 1, np.abs(maps - expected).max(), hint))


def _explain_output(out, expected, inputs, h, case):
    hint = "revisa que concatenes las salidas de las cabezas por columnas, en orden, y multipliques por Wo"
    joined, _ = reference(*inputs, h, project=False)
    if np.allclose(out, joined, atol=TOLERANCE):
        hint = "olvidaste multiplicar la concatenación por Wo al final"
    return ("Con {} los mapas están bien pero la salida no (difiere hasta en {:.3g}); {}.".format(
        case, np.abs(out - expected).max(), hint))


def _exception_hint(error):
    text = str(error)
    if "matmul" in text or "shapes" in text or "aligned" in text:
        return "comprueba las formas: cada cabeza toma un bloque de columnas, W[:, i*d_k:(i+1)*d_k], no de filas."
    return "lee el mensaje del error y prueba tu función con arrays pequeños en una celda."


def _shape(value):
    return getattr(value, "shape", None)


def _describe(value):
    if value is None:
        return "None (¿falta el return?)"
    if isinstance(value, np.ndarray):
        return "un único array de forma {}".format(value.shape)
    if isinstance(value, (tuple, list)):
        return "una secuencia de {} elementos".format(len(value))
    return "un valor de tipo {}".format(type(value).__name__)


def _fail(message):
    return {"ok": False, "message": message}
