import numpy as np


def layer_norm(x, eps):
    mean = x.mean(axis=-1)
    var = x.var(axis=-1)
    return (x - mean) / np.sqrt(var + eps)
