import numpy as np


def cabeza_causal(X, Wq, Wk, Wv):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv                  # (T, d_k), (T, d_k), (T, d_v)
    scores = Q @ K.T / np.sqrt(K.shape[1])            # (T, T)
    futuro = np.triu(np.ones(scores.shape, dtype=bool), k=1)
    scores = np.where(futuro, -np.inf, scores)        # antes del softmax: exp(-inf) = 0
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    A = e / e.sum(axis=1, keepdims=True)              # cada fila suma 1
    return A @ V, A                                   # (T, d_v), (T, T)
