"""Returns the maps as a Python list instead of one stacked array."""
import numpy as np

from course.attention import attention


def multi_head(X, Wq, Wk, Wv, Wo, h):
    d_k = X.shape[1] // h
    cabezas, mapas = [], []
    for i in range(h):
        columnas = slice(i * d_k, (i + 1) * d_k)
        cabeza, A = attention(X @ Wq[:, columnas], X @ Wk[:, columnas], X @ Wv[:, columnas])
        cabezas.append(cabeza)
        mapas.append(A)
    return np.hstack(cabezas) @ Wo, mapas
