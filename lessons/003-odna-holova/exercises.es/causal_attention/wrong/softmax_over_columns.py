"""Normaliza cada columna (eje 0) en lugar de cada fila."""
import numpy as np


def cabeza_causal(X, Wq, Wk, Wv):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    scores = Q @ K.T / np.sqrt(K.shape[1])
    scores = np.where(np.triu(np.ones(scores.shape, dtype=bool), k=1), -np.inf, scores)
    e = np.exp(scores - scores.max(axis=0, keepdims=True))
    A = e / e.sum(axis=0, keepdims=True)
    return A @ V, A
