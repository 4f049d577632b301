import numpy as np


def softmax_temperatura(s, T):
    e = np.exp(s / T)
    return e / e.sum()
