"""Divides Q in place, changing the caller's array."""
import numpy as np

from course.attention import softmax


def atencion_causal(Q, K, V):
    T = Q.shape[-2]
    Q /= np.sqrt(Q.shape[-1])
    futuro = np.triu(np.ones((T, T), dtype=bool), k=1)
    pesos = softmax(np.where(futuro, -np.inf, Q @ K.T), axis=-1)
    return pesos @ V, pesos
