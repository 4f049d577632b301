import numpy as np


def construir_wq():
    return np.eye(2)   # similitud bruta: tower busca lo que se le parece
