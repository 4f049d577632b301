import numpy as np


def cabeza_causal(X, Wq, Wk, Wv):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    # puntuaciones Q Kᵀ / √d_k, la máscara sobre la diagonal, un softmax por fila, la mezcla
    ...
    return H, A
