"""Averages the heads' outputs instead of concatenating them."""
import numpy as np

from course.attention import attention


def multi_head(X, Wq, Wk, Wv, Wo, h):
    d_k = X.shape[1] // h
    partes = [slice(i * d_k, (i + 1) * d_k) for i in range(h)]
    salidas, mapas = zip(*(attention(X @ Wq[:, p], X @ Wk[:, p], X @ Wv[:, p]) for p in partes))
    return np.mean(salidas, axis=0), np.stack(mapas)
