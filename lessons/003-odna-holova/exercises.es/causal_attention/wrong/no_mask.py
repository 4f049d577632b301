"""Olvida la máscara: cada posición lee también el futuro."""
import numpy as np


def cabeza_causal(X, Wq, Wk, Wv):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    scores = Q @ K.T / np.sqrt(K.shape[1])
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    A = e / e.sum(axis=1, keepdims=True)
    return A @ V, A
