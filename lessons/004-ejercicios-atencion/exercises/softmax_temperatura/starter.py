import numpy as np


def softmax_temperatura(s, T):
    exponenciales = np.exp(s)
    return exponenciales / exponenciales.sum()
