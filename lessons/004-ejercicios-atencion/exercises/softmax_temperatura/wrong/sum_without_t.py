import numpy as np


def softmax_temperatura(s, T):
    return np.exp(s / T) / np.exp(s).sum()
