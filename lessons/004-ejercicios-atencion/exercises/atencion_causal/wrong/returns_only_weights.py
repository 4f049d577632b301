"""Returns only the weights, not the pair."""
import numpy as np

from course.attention import softmax


def atencion_causal(Q, K, V):
    T = Q.shape[-2]
    futuro = np.triu(np.ones((T, T), dtype=bool), k=1)
    return softmax(np.where(futuro, -np.inf, Q @ K.T / np.sqrt(Q.shape[-1])), axis=-1)
