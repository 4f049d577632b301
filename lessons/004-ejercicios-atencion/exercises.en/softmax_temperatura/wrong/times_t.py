import numpy as np


def softmax_temperature(s, T):
    z = s * T
    e = np.exp(z - z.max())
    return e / e.sum()
