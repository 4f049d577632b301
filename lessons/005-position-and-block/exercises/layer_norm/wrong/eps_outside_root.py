import numpy as np


def layer_norm(x, eps):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / (np.sqrt(var) + eps)
