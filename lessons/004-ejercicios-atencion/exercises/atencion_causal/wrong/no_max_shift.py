"""Writes its own softmax without subtracting the row maximum: large scores overflow exp."""
import numpy as np


def atencion_causal(Q, K, V):
    T = Q.shape[-2]
    futuro = np.triu(np.ones((T, T), dtype=bool), k=1)
    E = np.exp(np.where(futuro, -np.inf, Q @ K.T / np.sqrt(Q.shape[-1])))
    pesos = E / E.sum(axis=-1, keepdims=True)
    return pesos @ V, pesos
