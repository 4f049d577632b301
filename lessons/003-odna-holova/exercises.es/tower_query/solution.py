import numpy as np


def construir_wq():
    # tower = [1, 0] lee la primera fila de Wq: que esa fila lleve la estructura a la parisinidad.
    Wq = np.array([[0.0, 1.0],
                   [1.0, 0.0]])
    return Wq
