"""Divide por la raíz de la anchura d de X en lugar de la anchura d_k de consultas y claves."""
import numpy as np


def cabeza_causal(X, Wq, Wk, Wv):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    scores = Q @ K.T / np.sqrt(X.shape[1])
    scores = np.where(np.triu(np.ones(scores.shape, dtype=bool), k=1), -np.inf, scores)
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    A = e / e.sum(axis=1, keepdims=True)
    return A @ V, A
