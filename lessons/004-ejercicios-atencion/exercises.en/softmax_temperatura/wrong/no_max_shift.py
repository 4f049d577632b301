import numpy as np


def softmax_temperature(s, T):
    e = np.exp(s / T)
    return e / e.sum()
