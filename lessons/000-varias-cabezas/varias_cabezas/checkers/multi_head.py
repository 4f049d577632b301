"""Checker for lesson 000's challenge: multi_head(X, Wq, Wk, Wv, Wo, h) -> (salida, A); (output, A) in English
and Ukrainian.

Runs the learner's function on several shapes (h = 1, h = d_model, T = 1, T
different from d_model), compares with course.attention.multi_head and, when
something differs, rebuilds the usual mistakes to name the one that was made.
Every message is one sentence, in the language of the page that asks (Spanish, English or
Ukrainian, course.numbers.current_language() at call time): what was expected, what came back, a hint.
"""

import re

import numpy as np

from course.attention import multi_head as reference
from course.checkers.common import Phrasebook, run_cases, shape
from course.numbers import current_language, number

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

PHRASEBOOKS = {
    "es": Phrasebook(
        "es", signature="X, Wq, Wk, Wv, Wo, h", pair="(salida, A)", ending="salida, A",
        advice="usa, por ejemplo, «Wq / np.sqrt(d_k)» en vez de «Wq /= ...»",
        shapes="comprueba las formas: cada cabeza toma un bloque de columnas, W[:, i*d_k:(i+1)*d_k], no de filas.",
        finite="resta el máximo de cada fila antes de np.exp para que el softmax no se desborde"),
    "en": Phrasebook(
        "en", signature="X, Wq, Wk, Wv, Wo, h", pair="(output, A)", ending="output, A",
        advice="write, for instance, \u201cWq / np.sqrt(d_k)\u201d rather than \u201cWq /= ...\u201d",
        shapes="check the shapes: each head takes a block of columns, W[:, i*d_k:(i+1)*d_k], not a block of rows.",
        finite="subtract each row's maximum before np.exp so that the softmax cannot overflow"),
    "uk": Phrasebook(
        "uk", signature="X, Wq, Wk, Wv, Wo, h", pair="(output, A)", ending="output, A",
        advice="наприклад, «Wq / np.sqrt(d_k)» замість «Wq /= ...»",
        shapes="перевірте форми: кожна голова бере блок стовпців, W[:, i*d_k:(i+1)*d_k], а не блок рядків.",
        finite="відніміть максимум кожного рядка перед np.exp, щоб softmax не переповнився"),
}
MESSAGES = {language: say.messages() for language, say in PHRASEBOOKS.items()}
SENTENCES = {  # this checker's own sentences, per language; {case} is filled in by the caller
    "es": {
        "output": "salida",
        "swapped": "Con {case} se esperaba (salida, A) en ese orden, pero devolviste primero los mapas y después la "
                   "salida; cambia el orden en el return.",
        "averaged": "; ¿promediaste o sumaste las cabezas? Concatena con np.concatenate(..., axis=1).",
        "list": "Con {case} se esperaba A como un único array de forma {shape}, pero devolviste una lista de {count} "
                "mapas; apílalos con np.stack(mapas).",
        "axis": "Con {case} se esperaba A de forma (h, T, T) = {shape}, pero tiene forma {actual}; apila los mapas "
                "sobre el primer eje con np.stack(mapas) (axis=0).",
        "rows": "Con {case} cada fila de cada mapa debía sumar 1, pero la fila {row} de la cabeza {head} suma {sum}; "
                "aplica el softmax a lo largo de cada fila (axis=-1).",
        "maps": "Con {case} el mapa de la cabeza {head} no es el esperado (difiere hasta en {difference}); {hint}.",
        "maps_hint": "revisa que la cabeza i use las columnas i·d_k … (i+1)·d_k de Wq y Wk (W[:, bloque]) y divida "
                     "entre √d_k",
        "row_blocks": "la cabeza i tomó las filas i·d_k … (i+1)·d_k de cada proyección (W[bloque]), no sus columnas "
                      "(W[:, bloque])",
        "no_scaling": "falta dividir las puntuaciones entre √d_k antes del softmax",
        "d_model": "dividiste entre √d_model; cada cabeza compara en d_k = d_model // h coordenadas, así que divide "
                   "entre √d_k",
        "out": "Con {case} los mapas están bien pero la salida no (difiere hasta en {difference}); {hint}.",
        "out_hint": "revisa que concatenes las salidas de las cabezas por columnas, en orden, y multipliques por Wo",
        "no_wo": "olvidaste multiplicar la concatenación por Wo al final",
        "stacked": "pusiste las salidas de las cabezas una debajo de otra (axis=0), de forma (h·T, d_k), y Wo espera "
                   "(T, d_model); concaténalas una al lado de otra, np.concatenate(salidas, axis=1).",
    },
    "en": {
        "output": "output",
        "swapped": "For {case} (output, A) was expected in that order, but you returned the maps first and the "
                   "output second; swap them in the return.",
        "averaged": "; did you average or add up the heads? Join them with np.concatenate(..., axis=1).",
        "list": "For {case} A was expected to be one array of shape {shape}, but you returned a list of {count} "
                "maps; stack them with np.stack(maps).",
        "axis": "For {case} A was expected to have shape (h, T, T) = {shape}, but its shape is {actual}; stack the "
                "maps along the first axis with np.stack(maps) (axis=0).",
        "rows": "For {case} every row of every map should add up to 1, but row {row} of head {head} adds up to {sum}; "
                "apply the softmax along each row (axis=-1).",
        "maps": "For {case} the map of head {head} is not the expected one (it differs by up to {difference}); "
                "{hint}.",
        "maps_hint": "check that head i uses columns i·d_k … (i+1)·d_k of Wq and Wk (W[:, block]) and divides by √d_k",
        "row_blocks": "head i took rows i·d_k … (i+1)·d_k of each projection (W[block]), not its columns "
                      "(W[:, block])",
        "no_scaling": "the scores are not divided by √d_k before the softmax",
        "d_model": "you divided by √d_model; each head compares queries and keys in d_k = d_model // h coordinates, "
                   "so divide by √d_k",
        "out": "For {case} the maps are right but the output is not (it differs by up to {difference}); {hint}.",
        "out_hint": "check that you join the heads' outputs by columns, in order, and multiply by Wo",
        "no_wo": "you forgot to multiply the joined heads by Wo at the end",
        "stacked": "you put the heads' outputs one under the other (axis=0), shape (h·T, d_k), where Wo needs "
                   "(T, d_model); join them side by side, np.concatenate(outputs, axis=1).",
    },
    "uk": {
        "output": "output",
        "swapped": "Для {case} очікувалася пара (output, A) саме в такому порядку, а ви повернули спершу мапи, а потім "
                   "вихід; поміняйте їх місцями в return.",
        "averaged": "; можливо, ви усереднили або додали голови? Зшийте їх через np.concatenate(..., axis=1).",
        "list": "Для {case} очікувалося, що A буде одним масивом форми {shape}, а ви повернули список мап ({count} шт.); "
                "складіть їх у масив через np.stack(maps).",
        "axis": "Для {case} очікувалося A форми (h, T, T) = {shape}, а його форма {actual}; складайте мапи вздовж "
                "першої осі, np.stack(maps) (axis=0).",
        "rows": "Для {case} кожен рядок кожної мапи мав сумувати до 1, а рядок {row} голови {head} дає {sum}; "
                "застосуйте softmax уздовж кожного рядка (axis=-1).",
        "maps": "Для {case} мапа голови {head} не така, як очікувалося (різниця до {difference}); {hint}.",
        "maps_hint": "перевірте, що голова i бере стовпці i·d_k … (i+1)·d_k матриць Wq і Wk (W[:, block]) і ділить "
                     "на √d_k",
        "row_blocks": "голова i взяла рядки i·d_k … (i+1)·d_k кожної проєкції (W[block]), а не її стовпці "
                      "(W[:, block])",
        "no_scaling": "бракує ділення оцінок на √d_k перед softmax",
        "d_model": "ви поділили на √d_model, а кожна голова порівнює запити й ключі в d_k = d_model // h координатах, "
                   "тож ділити треба на √d_k",
        "out": "Для {case} мапи правильні, а вихід ні (різниця до {difference}); {hint}.",
        "out_hint": "перевірте, що ви зшиваєте виходи голів по стовпцях, по черзі, і множите на Wo",
        "no_wo": "ви забули наприкінці помножити зшиті виходи голів на Wo",
        "stacked": "ви поставили виходи голів один під одним (axis=0), форми (h·T, d_k), а Wo чекає (T, d_model); "
                   "зшийте їх поруч, np.concatenate(outputs, axis=1).",
    },
}


def say():
    """The Phrasebook of the page that asks."""
    return PHRASEBOOKS[current_language()]


def sentence(name, **values):
    """This checker's sentence `name` in the language of the page that asks, filled with `values`."""
    return SENTENCES[current_language()][name].format(**values)


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
    return say().judge(function, inputs, case, INPUT_NAMES, lambda pair: _check_pair(pair, inputs, h, case), extra=(h,),
                       explain=lambda error: _explain_error(error, d_model, h))


# NumPy's words for a matmul whose inner sizes disagree: "... (size 8 is different from 4)", the second operand's
# first axis, then the first operand's last.
MATMUL_SIZES = re.compile(r"mismatch in its core dimension.*size (\d+) is different from (\d+)", re.S)


def _explain_error(error, d_model, h):
    """The slip behind a matmul that failed, when its sizes tell it: the heads' outputs (h·T, d_k) stacked along
    the rows meet Wo (d_model, d_model), a d_k against a d_model. Slicing rows instead of columns fails the other
    way round (X (T, d_model) against a block (d_k, d_model)), and keeps the general hint about blocks of columns."""
    sizes = MATMUL_SIZES.search(str(error))
    if h > 1 and sizes and (int(sizes.group(1)), int(sizes.group(2))) == (d_model, d_model // h):
        return sentence("stacked")
    return None


def _check_pair(returned, inputs, h, case):
    """The first problem with the pair that came back, as a sentence, or None."""
    expected_out, expected_maps = reference(*inputs, h)
    out, maps = returned
    T, d_model = expected_out.shape
    if shape(out) == (h, T, T) and shape(maps) == (T, d_model) and (h, T, T) != (T, d_model):
        return sentence("swapped", case=case)
    output = sentence("output")
    problem = say().array_problem(output, out, (T, d_model), case)
    if problem is None:
        problem = _check_maps(maps, h, T, case)
    if problem is not None:
        if shape(out) == (T, d_model // h) and output in problem:
            problem = problem[:-1] + sentence("averaged")
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
        return sentence("list", case=case, shape=(h, T, T), count=h)
    if isinstance(maps, np.ndarray) and maps.shape != (h, T, T) and sorted(maps.shape) == sorted((h, T, T)):
        return sentence("axis", case=case, shape=(h, T, T), actual=maps.shape)
    problem = say().array_problem("A", maps, (h, T, T), case)
    if problem is not None:
        return problem
    sums = maps.sum(axis=-1)
    if not np.allclose(sums, 1.0, atol=1e-6):
        head, row = np.unravel_index(np.abs(sums - 1.0).argmax(), sums.shape)
        return sentence("rows", case=case, row=row, head=head + 1, sum=number(float(sums[head, row]), ".3f"))
    return None


def _explain_maps(maps, expected, inputs, h, case):
    """Name the mistake that produces these maps, or point at the likely places."""
    head = int(np.abs(maps - expected).max(axis=(1, 2)).argmax())
    hint = sentence("maps_hint")
    d_model = inputs[0].shape[1]
    variants = [  # the usual mistakes, rebuilt with the reference, and the hint that names each
        ({"scale": 1.0}, "no_scaling"),
        ({"scale": np.sqrt(d_model)}, "d_model"),
    ]
    X, Wq, Wk, Wv, Wo = inputs
    rows = reference(X, Wq.T, Wk.T, Wv.T, Wo, h)[1]  # W[block].T, a block of rows, is W.T's block of columns
    for keywords, named in variants:
        if np.allclose(maps, reference(*inputs, h, **keywords)[1], atol=TOLERANCE):
            hint = sentence(named)
            break
    else:
        if np.allclose(maps, rows, atol=TOLERANCE):
            hint = sentence("row_blocks")
    return sentence("maps", case=case, head=head + 1, difference=number(float(np.abs(maps - expected).max()), ".3g"),
                    hint=hint)


def _explain_output(out, expected, inputs, h, case):
    """Name the mistake in an output whose maps are right: Wo forgotten, or the heads joined wrongly."""
    hint = sentence("out_hint")
    joined, _ = reference(*inputs, h, project=False)
    if np.allclose(out, joined, atol=TOLERANCE):
        hint = sentence("no_wo")
    return sentence("out", case=case, difference=number(float(np.abs(out - expected).max()), ".3g"), hint=hint)
