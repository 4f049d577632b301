"""Checker for lesson 004's exercise 5: atencion_causal(Q, K, V) -> (salida, pesos), the broken mask repaired
(English and Ukrainian editions: causal_attention(Q, K, V) -> (output, weights)).

Runs the learner's function on several shapes (T = 1, T different from d, large
scores that overflow an unshifted exp, Q, K and V all different, V narrower or
wider than Q and K, so a scale by V's width shows), compares with
a causal attention built on course.nn.layers.attention and, when something
differs, rebuilds the usual mistakes to name the one that was made. Every
message is one sentence, in the page's language: what was expected, what came back, a hint.
"""

import numpy as np

from course.attention import softmax
from course.checkers.common import SHAPE_WORDS, Phrasebook, run_cases, shape
from course.nn.layers import attention
from course.numbers import number

from ..corrector import Sentences, Voices

FUNCTION = {"es": "atencion_causal", "en": "causal_attention", "uk": "causal_attention"}
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

SAY = Voices({
    "es": Phrasebook(
        "es", signature="Q, K, V", pair="(salida, pesos)", ending="pesos @ V, pesos",
        advice="usa «Q @ K.T / np.sqrt(d)» en vez de «Q /= ...»",
        shapes="comprueba las formas: las puntuaciones son Q @ K.T, de forma (T, T), y la máscara también es (T, T).",
        finite="revisa los pesos con los que lo calculas", shape_words=SHAPE_WORDS + ("broadcast",)),
    "en": Phrasebook(
        "en", signature="Q, K, V", pair="(output, weights)", ending="weights @ V, weights",
        advice="write \u201cQ @ K.T / np.sqrt(d)\u201d rather than \u201cQ /= ...\u201d",
        shapes="check the shapes: the scores are Q @ K.T, of shape (T, T), and the mask is (T, T) too.",
        finite="go over the weights you compute it from", shape_words=SHAPE_WORDS + ("broadcast",)),
    "uk": Phrasebook(
        "uk", signature="Q, K, V", pair="(output, weights)", ending="weights @ V, weights",
        advice="пишіть «Q @ K.T / np.sqrt(d)», а не «Q /= ...»",
        shapes="перевірте форми: оцінки — це Q @ K.T, форми (T, T), і маска теж (T, T).",
        finite="перегляньте ваги, з яких ви його обчислюєте", shape_words=SHAPE_WORDS + ("broadcast",)),
})
MESSAGES = SAY.messages()
SENTENCES = Sentences({
    "es": {
        "case": "T={}, d={}",
        "v_width": ", V de anchura {}",
        "large": " y puntuaciones grandes",
        "weights": "pesos",
        "output": "salida",
        "order": "Con {} se esperaba (salida, pesos) en ese orden, pero devolviste primero los pesos; cambia el orden "
                 "en el return.",
        "diagonal_nan": "Con {} la fila 0 de los pesos es NaN: tapaste también la diagonal (np.triu con k=0), así que "
                        "la primera palabra no puede mirar a nadie y su softmax es 0/0; la máscara causal usa "
                        "np.triu(..., k=1).",
        "overflow": "Con {} los pesos contienen NaN aunque la fila 0 está bien: exp se desbordó con puntuaciones "
                    "grandes; resta el máximo de cada fila antes de np.exp.",
        "columns": "Con {} los pesos no son los esperados: el softmax se hizo por columnas; cada fila (cada palabra "
                   "que mira) es la que debe sumar 1, así que usa axis=-1.",
        "both_bugs": "Con {} la fila 0 suma 0 y la fila {} suma {}: pusiste la máscara después del softmax y además "
                     "con k=0; tapa las puntuaciones con -np.inf antes del softmax y usa np.triu(..., k=1).",
        "after_softmax": "Con {} cada fila de pesos debía sumar 1, pero la fila {} suma {}: pusiste ceros en los pesos "
                         "después del softmax; tapa las puntuaciones con -np.inf antes del softmax para que el peso se "
                         "reparta entre las palabras permitidas.",
        "past_masked": "Con {} la palabra {} no mira a la palabra {}, que está en su pasado y sí debía ver; la máscara "
                       "causal tapa sólo lo de encima de la diagonal (np.triu con k=1, no np.tril).",
        "zero_fill": "Con {} la palabra {} todavía mira a la palabra {}, que está en su futuro: tapaste las "
                     "puntuaciones con 0, y exp(0) = 1 no borra nada; usa -np.inf.",
        "future_seen": "Con {} la palabra {} mira a la palabra {}, que está en su futuro (peso {}); tapa con -np.inf "
                       "las puntuaciones de encima de la diagonal, np.triu(..., k=1).",
        "scale_hint": "revisa que las puntuaciones sean Q @ K.T divididas entre √d, con d = Q.shape[-1]",
        "no_scale": "falta dividir las puntuaciones entre √d antes del softmax",
        "scale_by_d": "dividiste entre d; se divide entre su raíz, np.sqrt(d)",
        "scale_by_v": "dividiste entre la raíz de la anchura de V; la d de √d es la de Q y K, Q.shape[-1]",
        "weights_wrong": "Con {} los pesos no son los esperados (difieren hasta en {}); {}.",
        "output_hint": "la salida es pesos @ V",
        "output_times": "multiplicaste los pesos por {} y no por V; la salida es pesos @ V",
        "output_wrong": "Con {} los pesos están bien pero la salida no (difiere hasta en {}); {}.",
    },
    "en": {
        "case": "T={}, d={}",
        "v_width": ", V of width {}",
        "large": " and large scores",
        "weights": "weights",
        "output": "output",
        "order": "For {}, (output, weights) was expected in that order, but you returned the weights first; swap "
                 "them in the return.",
        "diagonal_nan": "For {}, row 0 of the weights is NaN: you masked the diagonal too (np.triu with k=0), so the "
                        "first word has nothing to look at and its softmax is 0/0; the causal mask uses "
                        "np.triu(..., k=1).",
        "overflow": "For {}, the weights hold NaN although row 0 is fine: exp overflowed on large scores; subtract "
                    "each row's maximum before np.exp.",
        "columns": "For {}, the weights are not the expected ones: the softmax ran down the columns; each row (each "
                   "word that looks) is what must add up to 1, so use axis=-1.",
        "both_bugs": "For {}, row 0 adds up to 0 and row {} to {}: you applied the mask after the softmax, and with "
                     "k=0 as well; mask the scores with -np.inf before the softmax and use np.triu(..., k=1).",
        "after_softmax": "For {}, every row of weights should add up to 1, but row {} adds up to {}: you put zeros "
                         "into the weights after the softmax; mask the scores with -np.inf before the softmax, so "
                         "that the weight is shared among the allowed words.",
        "past_masked": "For {}, word {} does not look at word {}, which is in its past and should be visible; the "
                       "causal mask hides only what lies above the diagonal (np.triu with k=1, not np.tril).",
        "zero_fill": "For {}, word {} still looks at word {}, which is in its future: you masked the scores with 0, "
                     "and exp(0) = 1 removes nothing; use -np.inf.",
        "future_seen": "For {}, word {} looks at word {}, which is in its future (weight {}); mask the scores above "
                       "the diagonal with -np.inf, np.triu(..., k=1).",
        "scale_hint": "check that the scores are Q @ K.T divided by the square root of d, with d = Q.shape[-1]",
        "no_scale": "the scores still have to be divided by the square root of d before the softmax",
        "scale_by_d": "you divided by d; divide by its square root, np.sqrt(d)",
        "scale_by_v": "you divided by the square root of the width of V; the d in the square root of d is that of Q "
                      "and K, Q.shape[-1]",
        "weights_wrong": "For {}, the weights are not the expected ones (they differ by up to {}); {}.",
        "output_hint": "the output is weights @ V",
        "output_times": "you multiplied the weights by {} instead of V; the output is weights @ V",
        "output_wrong": "For {}, the weights are right but the output is not (it differs by up to {}); {}.",
    },
    "uk": {
        "case": "T={}, d={}",
        "v_width": ", V ширини {}",
        "large": " і великих оцінок",
        "weights": "weights",
        "output": "output",
        "order": "Для {} очікувалася пара (output, weights) саме в такому порядку, але ви повернули першими ваги; "
                 "поміняйте їх місцями в return.",
        "diagonal_nan": "Для {} рядок 0 ваг — NaN: ви закрили й діагональ (np.triu з k=0), тож першому слову нема на "
                        "що дивитися і його softmax дорівнює 0/0; причинна маска — це np.triu(..., k=1).",
        "overflow": "Для {} ваги містять NaN, хоча рядок 0 правильний: exp переповнилася на великих оцінках; "
                    "відніміть максимум кожного рядка перед np.exp.",
        "columns": "Для {} ваги не ті, що очікувалися: softmax узято вздовж стовпців, а до 1 має сумувати кожен "
                   "рядок (кожне слово, що дивиться), тож потрібно axis=-1.",
        "both_bugs": "Для {} рядок 0 сумує до 0, а рядок {} — до {}: ви наклали маску після softmax, та ще й із "
                     "k=0; закрийте оцінки значенням -np.inf до softmax і візьміть np.triu(..., k=1).",
        "after_softmax": "Для {} кожен рядок ваг мав сумувати до 1, але рядок {} сумує до {}: ви вписали нулі у "
                         "ваги після softmax; закрийте оцінки значенням -np.inf до softmax, щоб вага розподілилася "
                         "між дозволеними словами.",
        "past_masked": "Для {} слово {} не дивиться на слово {}, яке стоїть у його минулому і мало бути видимим; "
                       "причинна маска закриває лише те, що над діагоналлю (np.triu з k=1, а не np.tril).",
        "zero_fill": "Для {} слово {} досі дивиться на слово {}, що стоїть у його майбутньому: ви закрили оцінки "
                     "нулем, а exp(0) = 1 нічого не прибирає; візьміть -np.inf.",
        "future_seen": "Для {} слово {} дивиться на слово {}, що стоїть у його майбутньому (вага {}); закрийте "
                       "оцінки над діагоналлю значенням -np.inf, np.triu(..., k=1).",
        "scale_hint": "перевірте, що оцінки — це Q @ K.T, поділене на √d, де d = Q.shape[-1]",
        "no_scale": "оцінки ще треба поділити на √d перед softmax",
        "scale_by_d": "ви поділили на d, а ділити треба на корінь із нього, np.sqrt(d)",
        "scale_by_v": "ви поділили на корінь із ширини V, а d у √d — це ширина Q і K, Q.shape[-1]",
        "weights_wrong": "Для {} ваги не ті, що очікувалися (розходяться до {}); {}.",
        "output_hint": "вихід — це weights @ V",
        "output_times": "ви помножили ваги на {} замість V; вихід — це weights @ V",
        "output_wrong": "Для {} ваги правильні, а вихід ні (розходиться до {}); {}.",
    },
})


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
    case = SENTENCES.say("case", T, d) + (SENTENCES.say("v_width", d_v) if d_v != d else "") + (
        SENTENCES.say("large") if size > 1 else "")
    return SAY.now.judge(function, inputs, case, INPUT_NAMES, lambda pair: _check_pair(pair, inputs, case))


def _check_pair(returned, inputs, case):
    """The first problem with the pair that came back, as a sentence, or None."""
    Q, K, V = inputs
    expected_out, expected_weights = reference(Q, K, V)
    out, weights = returned
    if (_close(out, expected_weights) and _close(weights, expected_out)) or (
            shape(out) == expected_weights.shape != expected_out.shape and shape(weights) == expected_out.shape):
        return SENTENCES.say("order", case)
    problem = SAY.now.array_problem(SENTENCES.say("weights"), weights, expected_weights.shape, case, allow_nan=True)
    if problem is None:
        problem = _check_weights(np.asarray(weights, dtype=float), inputs, expected_weights, case)
    if problem is None:
        problem = SAY.now.array_problem(SENTENCES.say("output"), out, expected_out.shape, case)
    if problem is None and not _close(out, expected_out):
        problem = _explain_output(np.asarray(out, dtype=float), expected_weights, inputs, expected_out, case)
    return problem


def _check_weights(weights, inputs, expected, case):
    """Name what is wrong with the weights: NaN rows, rows that do not add up to 1, a future seen, a past hidden."""
    T = len(expected)
    future, past = causal_mask(T), np.tril(np.ones((T, T), dtype=bool), k=-1)
    if not np.all(np.isfinite(weights)):
        if not np.any(np.isfinite(weights[0])):
            return SENTENCES.say("diagonal_nan", case)
        return SENTENCES.say("overflow", case)
    if np.allclose(weights, expected, atol=TOLERANCE):
        return None
    sums = weights.sum(axis=-1)
    if np.allclose(weights, _variant(inputs, axis=0), atol=TOLERANCE):
        return SENTENCES.say("columns", case)
    if not np.allclose(sums, 1.0, atol=1e-6):
        if T > 1 and np.allclose(np.diag(weights), 0.0) and sums[0] == 0:
            row = 1 + int(np.abs(sums[1:] - 1.0).argmax())
            return SENTENCES.say("both_bugs", case, row, number(sums[row], ".3f"))
        row = int(np.abs(sums - 1.0).argmax())
        return SENTENCES.say("after_softmax", case, row, number(sums[row], ".3f"))
    hidden_past = past & (np.abs(weights) <= TOLERANCE) & (expected > TOLERANCE)
    if np.any(hidden_past):
        i, j = np.argwhere(hidden_past)[0]
        return SENTENCES.say("past_masked", case, i, j)
    if np.any(np.abs(weights[future]) > TOLERANCE):
        i, j = np.argwhere(future & (np.abs(weights) > TOLERANCE))[0]
        if np.allclose(weights, _variant(inputs, fill=0.0), atol=TOLERANCE):
            return SENTENCES.say("zero_fill", case, i, j)
        return SENTENCES.say("future_seen", case, i, j, number(weights[i, j], ".3f"))
    return _explain_scale(weights, inputs, expected, case)


def _explain_scale(weights, inputs, expected, case):
    """Name a wrong scale of the scores (none, or d instead of √d), or point at the likely place."""
    d = inputs[0].shape[1]
    hint = "scale_hint"
    d_v = inputs[2].shape[1]
    for scale, named in ((1.0, "no_scale"), (float(d), "scale_by_d"), (float(np.sqrt(d_v)), "scale_by_v")):
        if np.allclose(weights, _variant(inputs, scale=scale), atol=TOLERANCE):
            hint = named
            break
    return SENTENCES.say("weights_wrong", case, number(np.abs(weights - expected).max(), ".3g"),
                         SENTENCES.say(hint))


def _explain_output(out, weights, inputs, expected, case):
    """Name the mistake in an output whose weights are right: the weights multiplied by Q or K, not V."""
    Q, K, V = inputs
    hint = SENTENCES.say("output_hint")
    for name, other in (("Q", Q), ("K", K)):
        if other.shape == V.shape and np.allclose(out, weights @ other, atol=TOLERANCE):
            hint = SENTENCES.say("output_times", name)
    return SENTENCES.say("output_wrong", case, number(np.abs(out - expected).max(), ".3g"), hint)


def _variant(inputs, scale=None, axis=-1, fill=-np.inf):
    """A causal attention's weights with one of the usual mistakes rebuilt: another scale, axis or fill."""
    Q, K, _ = inputs
    scores = Q @ K.T / (np.sqrt(Q.shape[-1]) if scale is None else scale)
    return softmax(np.where(causal_mask(len(Q)), fill, scores), axis=axis)


def _close(value, expected):
    """True when `value` has the shape of `expected` and the same numbers, within the tolerance."""
    return shape(value) == expected.shape and np.allclose(np.asarray(value, dtype=float), expected, atol=TOLERANCE)
