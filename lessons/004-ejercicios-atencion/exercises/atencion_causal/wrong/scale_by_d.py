"""Divides the scores by d instead of its square root."""
import numpy as np

from course.attention import softmax


def atencion_causal(Q, K, V):
    T = Q.shape[-2]
    futuro = np.triu(np.ones((T, T), dtype=bool), k=1)
    pesos = softmax(np.where(futuro, -np.inf, Q @ K.T / Q.shape[-1]), axis=-1)
    return pesos @ V, pesos
