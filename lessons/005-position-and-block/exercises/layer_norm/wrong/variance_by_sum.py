"""Adds up the squared deviations instead of averaging them: D times the variance."""
import numpy as np


def layer_norm(x, eps):
    mean = x.mean(axis=-1, keepdims=True)                      # (..., 1)
    var = ((x - mean) ** 2).sum(axis=-1, keepdims=True)        # a sum of squares, not their mean
    return (x - mean) / np.sqrt(var + eps)
