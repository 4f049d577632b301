import numpy as np


def construir_wq():
    return np.array([[1.0, 1.0],
                     [0.0, 0.0]])   # consulta [1, 1]: Eiffel empata con tower
