"""Takes the softmax down each column (axis=0) instead of along each row."""
import numpy as np

from course.attention import softmax


def causal_attention(Q, K, V):
    T = Q.shape[-2]
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    weights = softmax(np.where(future, -np.inf, Q @ K.T / np.sqrt(Q.shape[-1])), axis=0)
    return weights @ V, weights
