import numpy as np


def construir_wq():
    # «consulta = Wq · x», como en un libro de álgebra lineal
    return np.array([[0.0, 0.0],
                     [1.0, 0.0]])
