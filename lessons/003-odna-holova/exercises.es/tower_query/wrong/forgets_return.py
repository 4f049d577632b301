import numpy as np


def construir_wq():
    Wq = np.array([[0.0, 1.0],
                   [1.0, 0.0]])
    print(Wq)   # se imprime, pero no se devuelve
