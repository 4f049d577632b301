"""Divides Q in place, changing the caller's array."""
import numpy as np

from course.attention import softmax


def causal_attention(Q, K, V):
    T = Q.shape[-2]
    Q /= np.sqrt(Q.shape[-1])
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    weights = softmax(np.where(future, -np.inf, Q @ K.T), axis=-1)
    return weights @ V, weights
