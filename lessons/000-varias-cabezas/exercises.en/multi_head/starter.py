import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    d_k = X.shape[1] // h
    outputs, maps = [], []
    for i in range(h):
        block = slice(i * d_k, (i + 1) * d_k)  # the columns of head i
        # this head's Q, K and V, its map A (T, T) and its output A @ V
        ...
    # join the outputs by columns, project with Wo, and stack the maps
    return output, A
