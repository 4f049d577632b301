"""Checker for lesson 004's exercise 8: parches(imagen, lado) -> (H/lado · W/lado, C·lado·lado).

Images are not square (H ≠ W) and every pixel holds a different number, so a patch
cut in the wrong order, or flattened with the wrong axes first, has the right shape
and the wrong numbers. When they differ, the usual transposes are rebuilt to name
the one that was made.
"""

import numpy as np

from course.checkers.common import run_cases

from ..corrector import call, phrasebook, rebuilt

FUNCTION = "parches"
CASES = ((3, 4, 6, 2), (1, 2, 4, 2), (2, 6, 9, 3), (3, 8, 4, 4), (3, 4, 4, 2), (4, 10, 15, 5))  # (C, H, W, lado)
SAY = phrasebook("imagen, lado", "parches")
MESSAGES = SAY.messages()


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
    case = "una imagen de forma ({}, {}, {}) y lado={}".format(C, H, W, lado)
    value, problem = call(function, (imagen, lado), case)
    expected = cut(imagen, lado)
    if problem is None:
        problem = SAY.array_problem("el resultado", value, expected.shape, case)
        if problem and isinstance(value, np.ndarray) and value.shape == ((H // lado) ** 2, C * lado * lado) != expected.shape:
            problem = ("Con {} se esperaban {} parches, pero devolviste {}: contaste los parches como si la imagen "
                       "fuera cuadrada; son (H / lado) · (W / lado).".format(
                           case, expected.shape[0], np.shape(value)[0]))
    if problem is None and not np.array_equal(value, expected):
        problem = "Con {} la forma es la buena, pero los números no: {}".format(case, _mistake(value, imagen, lado))
    if problem:
        return {"ok": False, "message": problem}
    return {"ok": True, "message": MESSAGES["passed"].format(case=case)}


def _mistake(value, imagen, lado):
    """The usual mistake that gives `value`, as the end of a sentence, or a hint to check one patch by hand."""
    C, H, W = imagen.shape
    variants = (
        (imagen.reshape(-1, C * lado * lado), "un reshape directo no corta recuadros; separa cada eje en «qué "
                                              "parche» y «dónde dentro», y reordena con transpose antes de "
                                              "aplanar."),
        (cut(imagen, lado, (3, 1, 0, 2, 4)), "los parches salen por columnas; van en orden de lectura, de "
                                             "izquierda a derecha y después de arriba abajo: la fila de parches "
                                             "primero."),
        (cut(imagen, lado, (1, 3, 2, 4, 0)), "cada parche está aplanado con el canal al final; se aplana canal por "
                                             "canal: (c, y, x), con el canal primero."),
        (cut(imagen, lado, (1, 3, 0, 4, 2)), "dentro de cada canal del parche cambiaste y por x; dentro del parche "
                                             "el orden es (c, y, x), una fila de píxeles tras otra."),
        (imagen.transpose(0, 2, 1).reshape(C, W // lado, lado, H // lado, lado).transpose(1, 3, 0, 2, 4).reshape(
            -1, C * lado * lado), "trataste la anchura como altura: la imagen es (C, H, W), con H, las filas, antes "
                                  "que W."),
    )
    return rebuilt(value, variants) or "compara tu primer parche con imagen[:, :lado, :lado].ravel()."
