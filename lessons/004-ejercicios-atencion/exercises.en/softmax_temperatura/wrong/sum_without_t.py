import numpy as np


def softmax_temperature(s, T):
    return np.exp(s / T) / np.exp(s).sum()
