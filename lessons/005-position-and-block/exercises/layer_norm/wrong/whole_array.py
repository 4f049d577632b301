import numpy as np


def layer_norm(x, eps):
    return (x - x.mean()) / np.sqrt(x.var() + eps)
