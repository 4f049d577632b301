"""Aplica primero el softmax y después pone a cero los pesos del futuro: las filas ya no suman 1."""
import numpy as np


def cabeza_causal(X, Wq, Wk, Wv):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    scores = Q @ K.T / np.sqrt(K.shape[1])
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    A = e / e.sum(axis=1, keepdims=True)
    A = A * np.tril(np.ones(A.shape))
    return A @ V, A
