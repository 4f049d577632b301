"""Calls exp on the raw scores, which overflows to inf / inf = NaN for large inputs."""
import numpy as np


def causal_attention(X, Wq, Wk, Wv):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    scores = Q @ K.T / np.sqrt(K.shape[1])
    scores = np.where(np.triu(np.ones(scores.shape, dtype=bool), k=1), -np.inf, scores)
    e = np.exp(scores)
    A = e / e.sum(axis=1, keepdims=True)
    return A @ V, A
