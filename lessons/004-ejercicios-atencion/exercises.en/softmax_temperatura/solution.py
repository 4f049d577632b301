import numpy as np


def softmax_temperature(s, T):
    z = s / T                 # the temperature divides the scores
    e = np.exp(z - z.max())   # subtracting the maximum keeps exp from overflowing
    return e / e.sum()
