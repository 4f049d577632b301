"""Checker for lesson 004's exercise 5: atencion_causal(Q, K, V) -> (salida, pesos), the broken mask repaired.

Runs the learner's function on several shapes (T = 1, T different from d, large
scores that overflow an unshifted exp, Q, K and V all different, V narrower or
wider than Q and K, so a scale by V's width shows), compares with
a causal attention built on course.nn.layers.attention and, when something
differs, rebuilds the usual mistakes to name the one that was made. Every
message is one Spanish sentence: what was expected, what came back, a hint.
"""

import numpy as np

from course.attention import softmax
from course.checkers.common import SHAPE_WORDS, Phrasebook, run_cases, shape
from course.nn.layers import attention
from course.numbers import number

FUNCTION = "atencion_causal"
CASES = (  # (T, d of Q and K, d of V, seed, size of the entries)
    (4, 8, 8, 1, 1.0),
    (1, 4, 4, 2, 1.0),
    (5, 3, 3, 3, 1.0),
    (6, 6, 2, 4, 1.0),
    (3, 2, 2, 5, 40.0),
    (7, 5, 9, 6, 1.0),
)
TOLERANCE = 1e-6
INPUT_NAMES = ("Q", "K", "V")

SAY = Phrasebook(
    "es", signature="Q, K, V", pair="(salida, pesos)", ending="pesos @ V, pesos",
    advice="usa «Q @ K.T / np.sqrt(d)» en vez de «Q /= ...»",
    shapes="comprueba las formas: las puntuaciones son Q @ K.T, de forma (T, T), y la máscara también es (T, T).",
    finite="revisa los pesos con los que lo calculas", shape_words=SHAPE_WORDS + ("broadcast",))
MESSAGES = SAY.messages()


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    return run_cases(function, CASES, _check_case)


def causal_mask(T):
    """True above the diagonal: the positions each row may not look at (its future)."""
    return np.triu(np.ones((T, T), dtype=bool), k=1)


def reference(Q, K, V):
    """The repaired function: the future hidden with -inf on the scores, before the softmax."""
    out, A, _ = attention(Q, K, V, causal_mask(len(Q)))
    return out, A


def _check_case(function, T, d, d_v, seed, size):
    """Run one case and compare it with the reference; a passed or failed result."""
    rng = np.random.default_rng(seed)
    inputs = [size * rng.normal(size=(T, width)) for width in (d, d, d_v)]
    case = "T={}, d={}".format(T, d) + (", V de anchura {}".format(d_v) if d_v != d else "") + (
        " y puntuaciones grandes" if size > 1 else "")
    return SAY.judge(function, inputs, case, INPUT_NAMES, lambda pair: _check_pair(pair, inputs, case))


def _check_pair(returned, inputs, case):
    """The first problem with the pair that came back, as a sentence, or None."""
    Q, K, V = inputs
    expected_out, expected_weights = reference(Q, K, V)
    out, weights = returned
    if (_close(out, expected_weights) and _close(weights, expected_out)) or (
            shape(out) == expected_weights.shape != expected_out.shape and shape(weights) == expected_out.shape):
        return ("Con {} se esperaba (salida, pesos) en ese orden, pero devolviste primero los pesos; cambia el "
                "orden en el return.".format(case))
    problem = SAY.array_problem("pesos", weights, expected_weights.shape, case, allow_nan=True)
    if problem is None:
        problem = _check_weights(np.asarray(weights, dtype=float), inputs, expected_weights, case)
    if problem is None:
        problem = SAY.array_problem("salida", out, expected_out.shape, case)
    if problem is None and not _close(out, expected_out):
        problem = _explain_output(np.asarray(out, dtype=float), expected_weights, inputs, expected_out, case)
    return problem


def _check_weights(weights, inputs, expected, case):
    """Name what is wrong with the weights: NaN rows, rows that do not add up to 1, a future seen, a past hidden."""
    T = len(expected)
    future, past = causal_mask(T), np.tril(np.ones((T, T), dtype=bool), k=-1)
    if not np.all(np.isfinite(weights)):
        if not np.any(np.isfinite(weights[0])):
            return ("Con {} la fila 0 de los pesos es NaN: tapaste también la diagonal (np.triu con k=0), así que "
                    "la primera palabra no puede mirar a nadie y su softmax es 0/0; la máscara causal usa "
                    "np.triu(..., k=1).".format(case))
        return ("Con {} los pesos contienen NaN aunque la fila 0 está bien: exp se desbordó con puntuaciones grandes; "
                "resta el máximo de cada fila antes de np.exp.".format(case))
    if np.allclose(weights, expected, atol=TOLERANCE):
        return None
    sums = weights.sum(axis=-1)
    if np.allclose(weights, _variant(inputs, axis=0), atol=TOLERANCE):
        return ("Con {} los pesos no son los esperados: el softmax se hizo por columnas; cada fila (cada palabra "
                "que mira) es la que debe sumar 1, así que usa axis=-1.".format(case))
    if not np.allclose(sums, 1.0, atol=1e-6):
        if T > 1 and np.allclose(np.diag(weights), 0.0) and sums[0] == 0:
            row = 1 + int(np.abs(sums[1:] - 1.0).argmax())
            return ("Con {} la fila 0 suma 0 y la fila {} suma {}: pusiste la máscara después del softmax y "
                    "además con k=0; tapa las puntuaciones con -np.inf antes del softmax y usa "
                    "np.triu(..., k=1).".format(case, row, number(sums[row], ".3f")))
        row = int(np.abs(sums - 1.0).argmax())
        return ("Con {} cada fila de pesos debía sumar 1, pero la fila {} suma {}: pusiste ceros en los pesos "
                "después del softmax; tapa las puntuaciones con -np.inf antes del softmax para que el peso se reparta "
                "entre las palabras permitidas.".format(case, row, number(sums[row], ".3f")))
    hidden_past = past & (np.abs(weights) <= TOLERANCE) & (expected > TOLERANCE)
    if np.any(hidden_past):
        i, j = np.argwhere(hidden_past)[0]
        return ("Con {} la palabra {} no mira a la palabra {}, que está en su pasado y sí debía ver; la máscara "
                "causal tapa sólo lo de encima de la diagonal (np.triu con k=1, no np.tril).".format(case, i, j))
    if np.any(np.abs(weights[future]) > TOLERANCE):
        i, j = np.argwhere(future & (np.abs(weights) > TOLERANCE))[0]
        if np.allclose(weights, _variant(inputs, fill=0.0), atol=TOLERANCE):
            return ("Con {} la palabra {} todavía mira a la palabra {}, que está en su futuro: tapaste las puntuaciones "
                    "con 0, y exp(0) = 1 no borra nada; usa -np.inf.".format(case, i, j))
        return ("Con {} la palabra {} mira a la palabra {}, que está en su futuro (peso {}); tapa con -np.inf "
                "las puntuaciones de encima de la diagonal, np.triu(..., k=1).".format(case, i, j, number(weights[i, j], ".3f")))
    return _explain_scale(weights, inputs, expected, case)


def _explain_scale(weights, inputs, expected, case):
    """Name a wrong scale of the scores (none, or d instead of √d), or point at the likely place."""
    d = inputs[0].shape[1]
    hint = "revisa que las puntuaciones sean Q @ K.T divididas entre √d, con d = Q.shape[-1]"
    d_v = inputs[2].shape[1]
    for scale, named in ((1.0, "falta dividir las puntuaciones entre √d antes del softmax"),
                         (float(d), "dividiste entre d; se divide entre su raíz, np.sqrt(d)"),
                         (float(np.sqrt(d_v)), "dividiste entre la raíz de la anchura de V; la d de √d es la de "
                                               "Q y K, Q.shape[-1]")):
        if np.allclose(weights, _variant(inputs, scale=scale), atol=TOLERANCE):
            hint = named
            break
    return "Con {} los pesos no son los esperados (difieren hasta en {}); {}.".format(
        case, number(np.abs(weights - expected).max(), ".3g"), hint)


def _explain_output(out, weights, inputs, expected, case):
    """Name the mistake in an output whose weights are right: the weights multiplied by Q or K, not V."""
    Q, K, V = inputs
    hint = "la salida es pesos @ V"
    for name, other in (("Q", Q), ("K", K)):
        if other.shape == V.shape and np.allclose(out, weights @ other, atol=TOLERANCE):
            hint = "multiplicaste los pesos por {} y no por V; la salida es pesos @ V".format(name)
    return "Con {} los pesos están bien pero la salida no (difiere hasta en {}); {}.".format(
        case, number(np.abs(out - expected).max(), ".3g"), hint)


def _variant(inputs, scale=None, axis=-1, fill=-np.inf):
    """A causal attention's weights with one of the usual mistakes rebuilt: another scale, axis or fill."""
    Q, K, _ = inputs
    scores = Q @ K.T / (np.sqrt(Q.shape[-1]) if scale is None else scale)
    return softmax(np.where(causal_mask(len(Q)), fill, scores), axis=axis)


def _close(value, expected):
    """True when `value` has the shape of `expected` and the same numbers, within the tolerance."""
    return shape(value) == expected.shape and np.allclose(np.asarray(value, dtype=float), expected, atol=TOLERANCE)
