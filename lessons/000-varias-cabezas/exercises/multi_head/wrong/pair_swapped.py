"""Returns (A, salida): the pair in the wrong order."""
import numpy as np

from course.attention import softmax


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    Q = (X @ Wq).reshape(T, h, d_k)
    K = (X @ Wk).reshape(T, h, d_k)
    V = (X @ Wv).reshape(T, h, d_k)
    A = softmax(np.einsum("thd,shd->hts", Q, K) / np.sqrt(d_k), axis=-1)  # (h, T, T)
    salida = np.einsum("hts,shd->thd", A, V).reshape(T, d_model) @ Wo
    return A, salida
