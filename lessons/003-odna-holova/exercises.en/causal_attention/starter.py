import numpy as np


def causal_head(X, Wq, Wk, Wv):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    # scores Q Kᵀ / √d_k, the mask above the diagonal, a softmax per row, the mixture
    ...
    return H, A
