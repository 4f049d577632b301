"""The function as the classmate wrote it: mask after the softmax, and the diagonal masked too."""
import numpy as np

from course.attention import softmax


def causal_attention(Q, K, V):
    T = Q.shape[-2]
    weights = softmax(Q @ K.T / np.sqrt(Q.shape[-1]), axis=-1)
    future = np.triu(np.ones((T, T), dtype=bool), k=0)
    weights = np.where(future, 0.0, weights)
    return weights @ V, weights
