import numpy as np


def softmax_temperatura(s, T):
    z = s / T ** 2
    e = np.exp(z - z.max())
    return e / e.sum()
