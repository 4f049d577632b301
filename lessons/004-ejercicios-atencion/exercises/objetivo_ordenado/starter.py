import numpy as np


def objetivo_ordenado(X):
    # X: (secuencias, LARGO); el objetivo de cada secuencia es ella misma, ordenada de menor a mayor
    return X
