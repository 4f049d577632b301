import numpy as np


def construir_wq():
    return np.array([[0.0, -1.0],
                     [1.0, 0.0]])   # la consulta de tower = [0, -1]
