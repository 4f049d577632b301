"""Stacks the maps on the last axis, giving (T, T, h) instead of (h, T, T)."""
import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    # (T, d_model) -> (h, T, d_k): one slab per head
    Q, K, V = ((X @ W).reshape(T, h, d_k).transpose(1, 0, 2) for W in (Wq, Wk, Wv))
    S = Q @ K.transpose(0, 2, 1) / np.sqrt(d_k)  # (h, T, T)
    A = np.exp(S - S.max(axis=-1, keepdims=True))
    A /= A.sum(axis=-1, keepdims=True)
    salida = (A @ V).transpose(1, 0, 2).reshape(T, d_model) @ Wo
    return salida, A.transpose(1, 2, 0)  # (T, T, h)
