import numpy as np


def softmax_temperature(s, T):
    s /= T
    e = np.exp(s - s.max())
    return e / e.sum()
