"""Enmascara también la diagonal (k=0), y la primera posición se queda sin nada que mirar."""
import numpy as np


def cabeza_causal(X, Wq, Wk, Wv):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    scores = Q @ K.T / np.sqrt(K.shape[1])
    scores = np.where(np.triu(np.ones(scores.shape, dtype=bool), k=0), -np.inf, scores)
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    A = e / e.sum(axis=1, keepdims=True)
    return A @ V, A
