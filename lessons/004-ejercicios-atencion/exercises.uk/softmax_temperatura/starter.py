import numpy as np


def softmax_temperature(s, T):
    exponentials = np.exp(s)
    return exponentials / exponentials.sum()
