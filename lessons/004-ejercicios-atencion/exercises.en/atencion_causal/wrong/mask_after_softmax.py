"""Fixes the diagonal but still zeroes the weights after the softmax, so rows stop adding up to 1."""
import numpy as np

from course.attention import softmax


def causal_attention(Q, K, V):
    T = Q.shape[-2]
    weights = softmax(Q @ K.T / np.sqrt(Q.shape[-1]), axis=-1)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    weights = np.where(future, 0.0, weights)
    return weights @ V, weights
