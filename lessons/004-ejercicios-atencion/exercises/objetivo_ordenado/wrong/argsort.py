import numpy as np


def objetivo_ordenado(X):
    return np.argsort(X, axis=1)
