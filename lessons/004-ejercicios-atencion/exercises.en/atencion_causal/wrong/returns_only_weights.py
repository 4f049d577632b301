"""Returns only the weights, not the pair."""
import numpy as np

from course.attention import softmax


def causal_attention(Q, K, V):
    T = Q.shape[-2]
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    return softmax(np.where(future, -np.inf, Q @ K.T / np.sqrt(Q.shape[-1])), axis=-1)
