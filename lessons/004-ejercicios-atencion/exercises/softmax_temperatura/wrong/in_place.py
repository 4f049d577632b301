import numpy as np


def softmax_temperatura(s, T):
    s /= T
    e = np.exp(s - s.max())
    return e / e.sum()
