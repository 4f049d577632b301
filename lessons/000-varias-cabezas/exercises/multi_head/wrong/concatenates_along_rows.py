"""Stacks the heads' outputs one under the other (axis=0) instead of side by side."""
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    salidas, mapas = [], []
    for i in range(h):
        bloque = slice(i * d_k, (i + 1) * d_k)        # columnas de la cabeza i
        Q, K, V = X @ Wq[:, bloque], X @ Wk[:, bloque], X @ Wv[:, bloque]
        S = Q @ K.T / np.sqrt(d_k)                    # (T, T)
        E = np.exp(S - S.max(axis=1, keepdims=True))
        A = E / E.sum(axis=1, keepdims=True)          # cada fila suma 1
        salidas.append(A @ V)                         # (T, d_k)
        mapas.append(A)
    salida = np.concatenate(salidas, axis=0) @ Wo     # las cabezas una debajo de otra
    return salida, np.stack(mapas)                    # (h, T, T)
