import numpy as np


def softmax_temperatura(s, T):
    z = s / T
    e = np.exp(z - z.max())
    return e / e.max()
