"""Writes its own softmax without subtracting the row maximum: large scores overflow exp."""
import numpy as np


def causal_attention(Q, K, V):
    T = Q.shape[-2]
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    E = np.exp(np.where(future, -np.inf, Q @ K.T / np.sqrt(Q.shape[-1])))
    weights = E / E.sum(axis=-1, keepdims=True)
    return weights @ V, weights
