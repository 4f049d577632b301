import numpy as np


def objetivo_ordenado(X):
    return np.sort(X, axis=0)
