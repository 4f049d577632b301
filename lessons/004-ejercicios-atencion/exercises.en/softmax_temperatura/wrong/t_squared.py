import numpy as np


def softmax_temperature(s, T):
    z = s / T ** 2
    e = np.exp(z - z.max())
    return e / e.sum()
