import numpy as np


def construir_wq():
    return np.array([0.0, 1.0])   # la propia consulta, no una matriz
