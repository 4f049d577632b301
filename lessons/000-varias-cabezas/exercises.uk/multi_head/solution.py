import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    T, d_model = X.shape
    d_k = d_model // h
    outputs, maps = [], []
    for i in range(h):
        block = slice(i * d_k, (i + 1) * d_k)         # стовпці голови i
        Q, K, V = X @ Wq[:, block], X @ Wk[:, block], X @ Wv[:, block]
        S = Q @ K.T / np.sqrt(d_k)                    # (T, T)
        E = np.exp(S - S.max(axis=1, keepdims=True))
        A = E / E.sum(axis=1, keepdims=True)          # кожен рядок сумує до 1
        outputs.append(A @ V)                         # (T, d_k)
        maps.append(A)
    output = np.concatenate(outputs, axis=1) @ Wo     # (T, d_model)
    return output, np.stack(maps)                     # (h, T, T)
