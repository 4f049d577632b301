import numpy as np


def layer_norm(x, eps):
    mean = x.mean(axis=-1, keepdims=True)                      # (..., 1)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)       # (..., 1), поділена на D
    return (x - mean) / np.sqrt(var + eps)
