"""Divides the scores by d instead of its square root."""
import numpy as np

from course.attention import softmax


def causal_attention(Q, K, V):
    T = Q.shape[-2]
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    weights = softmax(np.where(future, -np.inf, Q @ K.T / Q.shape[-1]), axis=-1)
    return weights @ V, weights
