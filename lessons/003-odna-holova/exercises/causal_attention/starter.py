import numpy as np


def causal_attention(X, Wq, Wk, Wv):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    # оцінки Q Kᵀ / √d_k, маска над діагоналлю, softmax кожного рядка, суміш
    ...
    return H, A
