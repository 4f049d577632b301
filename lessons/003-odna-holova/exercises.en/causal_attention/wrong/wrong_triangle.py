"""Hides the past (the lower triangle) instead of the future."""
import numpy as np


def causal_head(X, Wq, Wk, Wv):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    scores = Q @ K.T / np.sqrt(K.shape[1])
    scores = np.where(np.tril(np.ones(scores.shape, dtype=bool), k=-1), -np.inf, scores)
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    A = e / e.sum(axis=1, keepdims=True)
    return A @ V, A
