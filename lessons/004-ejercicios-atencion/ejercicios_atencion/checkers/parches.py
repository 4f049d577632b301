"""Checker for lesson 004's exercise 8: parches(imagen, lado) -> (H/lado · W/lado, C·lado·lado)
(English and Ukrainian editions: patches(image, side)).

Images are not square (H ≠ W) and every pixel holds a different number, so a patch
cut in the wrong order, or flattened with the wrong axes first, has the right shape
and the wrong numbers. When they differ, the usual transposes are rebuilt to name
the one that was made.
"""

import numpy as np

from course.checkers.common import run_cases

from ..corrector import Sentences, call, phrasebooks, rebuilt

FUNCTION = {"es": "parches", "en": "patches", "uk": "patches"}
CASES = ((3, 4, 6, 2), (1, 2, 4, 2), (2, 6, 9, 3), (3, 8, 4, 4), (3, 4, 4, 2), (4, 10, 15, 5))  # (C, H, W, lado)
SAY = phrasebooks({"es": "imagen, lado", "en": "image, side", "uk": "image, side"},
                  {"es": "parches", "en": "patches", "uk": "patches"})
MESSAGES = SAY.messages()
SENTENCES = Sentences({
    "es": {
        "case": "una imagen de forma ({}, {}, {}) y lado={}",
        "result": "el resultado",
        "square_count": "Con {} se esperaban {} parches, pero devolviste {}: contaste los parches como si la imagen "
                        "fuera cuadrada; son (H / lado) · (W / lado).",
        "wrong": "Con {} la forma es la buena, pero los números no: {}",
        "blocks": "Con {} se esperaba forma {}, pero tu resultado tiene forma {}: los parches siguen siendo bloques; "
                  "aplana cada uno en una fila, con un reshape a (número de parches, C · lado · lado).",
        "no_transpose": "un reshape directo no corta recuadros; separa cada eje en «qué parche» y «dónde dentro», y "
                        "reordena con transpose antes de aplanar.",
        "columns_first": "los parches salen por columnas; van en orden de lectura, de izquierda a derecha y después "
                         "de arriba abajo: la fila de parches primero.",
        "channel_last": "cada parche está aplanado con el canal al final; se aplana canal por canal: (c, y, x), con "
                        "el canal primero.",
        "x_before_y": "dentro de cada canal del parche cambiaste y por x; dentro del parche el orden es (c, y, x), "
                      "una fila de píxeles tras otra.",
        "height_width_swapped": "trataste la anchura como altura: la imagen es (C, H, W), con H, las filas, antes "
                                "que W.",
        "other": "compara tu primer parche con imagen[:, :lado, :lado].ravel().",
    },
    "en": {
        "case": "an image of shape ({}, {}, {}) and side={}",
        "result": "the result",
        "square_count": "For {}, {} patches were expected, but you returned {}: you counted the patches as if the "
                        "image were square; there are (H / side) · (W / side).",
        "wrong": "For {}, the shape is right, but the numbers are not: {}",
        "blocks": "For {}, shape {} was expected, but your result has shape {}: the patches are still blocks; "
                  "flatten each into one row with a reshape to (number of patches, C · side · side).",
        "no_transpose": "a plain reshape does not cut out squares; split each axis into which patch and where inside "
                        "it, and reorder with transpose before flattening.",
        "columns_first": "your patches come out column by column; they go in reading order, left to right and then "
                         "top to bottom: the row of patches first.",
        "channel_last": "each patch is flattened with the channel last; flatten it channel by channel: (c, y, x), "
                        "with the channel first.",
        "x_before_y": "inside each channel of the patch you swapped y and x; inside a patch the order is (c, y, x), "
                      "one row of pixels after another.",
        "height_width_swapped": "you treated the width as the height: the image is (C, H, W), with H, the rows, "
                                "before W.",
        "other": "compare your first patch with image[:, :side, :side].ravel().",
    },
    "uk": {
        "case": "зображення форми ({}, {}, {}) і side={}",
        "result": "результат",
        "square_count": "Для {} очікувалася кількість патчів {}, а ви повернули {}: ви рахували патчі так, ніби зображення "
                        "квадратне; їх (H / side) · (W / side).",
        "wrong": "Для {} форма правильна, а числа ні: {}",
        "blocks": "Для {} очікувалася форма {}, а ваш результат має форму {}: патчі досі є блоками; сплощте кожен "
                  "в один рядок через reshape до (кількість патчів, C · side · side).",
        "no_transpose": "простий reshape не вирізає квадратів; розділіть кожну вісь на «котрий патч» і «де всередині "
                        "нього» й переставте осі через transpose перед сплощенням.",
        "columns_first": "ваші патчі йдуть стовпцями, а мають іти в порядку читання, зліва направо, а потім згори "
                         "донизу: спершу рядок патчів.",
        "channel_last": "кожен патч сплощено з каналом у кінці, а сплощувати треба канал за каналом: (c, y, x), "
                        "канал першим.",
        "x_before_y": "усередині кожного каналу патча ви поміняли місцями y і x; усередині патча порядок (c, y, x), "
                      "рядок пікселів за рядком.",
        "height_width_swapped": "ви взяли ширину за висоту: зображення має форму (C, H, W), і H, рядки, іде перед "
                                "W.",
        "other": "порівняйте свій перший патч з image[:, :side, :side].ravel().",
    },
})


def check(function):
    """One result per case, in order, up to and including the first case that fails."""
    return run_cases(function, CASES, _check_case)


def cut(imagen, lado, order=(1, 3, 0, 2, 4)):
    """The patches with the axes (patch row, patch column, c, y, x) taken in `order`: the reference by default."""
    C, H, W = imagen.shape
    pieces = imagen.reshape(C, H // lado, lado, W // lado, lado).transpose(order)   # (fila, columna, c, y, x)
    return pieces.reshape((H // lado) * (W // lado), C * lado * lado)


def _check_case(function, C, H, W, lado):
    """Compare the learner's patches with the reference for one image; a passed or failed result."""
    imagen = np.random.default_rng(C * 100 + H * 10 + W).permutation(C * H * W).reshape(C, H, W).astype(float)
    case = SENTENCES.say("case", C, H, W, lado)
    value, problem = call(function, (imagen, lado), case)
    expected = cut(imagen, lado)
    if problem is None:
        problem = SAY.now.array_problem(SENTENCES.say("result"), value, expected.shape, case)
        if problem and isinstance(value, np.ndarray) and value.shape == ((H // lado) ** 2, C * lado * lado) != expected.shape:
            problem = SENTENCES.say("square_count", case, expected.shape[0], np.shape(value)[0])
        elif problem and isinstance(value, np.ndarray) and value.ndim > 2 and value.size == expected.size:
            problem = SENTENCES.say("blocks", case, expected.shape, value.shape)
    if problem is None and not np.array_equal(value, expected):
        problem = SENTENCES.say("wrong", case, _mistake(value, imagen, lado))
    return SAY.verdict(problem, case)


def _mistake(value, imagen, lado):
    """The usual mistake that gives `value`, as the end of a sentence, or a hint to check one patch by hand."""
    C, H, W = imagen.shape
    variants = (
        (imagen.reshape(-1, C * lado * lado), "no_transpose"),
        (cut(imagen, lado, (3, 1, 0, 2, 4)), "columns_first"),
        (cut(imagen, lado, (1, 3, 2, 4, 0)), "channel_last"),
        (cut(imagen, lado, (1, 3, 0, 4, 2)), "x_before_y"),
        (imagen.transpose(0, 2, 1).reshape(C, W // lado, lado, H // lado, lado).transpose(1, 3, 0, 2, 4).reshape(
            -1, C * lado * lado), "height_width_swapped"),
    )
    return SENTENCES.say(rebuilt(value, variants) or "other")
