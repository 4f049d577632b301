"""Attention in plain NumPy: softmax, one scaled dot-product head, and multi-head attention.

Shapes: X (T, d_model); W_Q, W_K, W_V (d_model, h·d_k) with the h heads side by
side in blocks of columns; W_O (h·d_v, d_model); maps A (h, T, T).
"""

import numpy as np


def softmax(scores, axis=-1):
    """Softmax along `axis`, shifted by the maximum so exp cannot overflow."""
    shifted = np.exp(scores - scores.max(axis=axis, keepdims=True))
    return shifted / shifted.sum(axis=axis, keepdims=True)


def attention(Q, K, V, scale=None, axis=-1):
    """One head: softmax(Q Kᵀ / scale) V; returns (output (T, d_v), map (T, T))."""
    if scale is None:
        scale = np.sqrt(Q.shape[-1])
    A = softmax(Q @ K.T / scale, axis=axis)  # (T, T)
    return A @ V, A


def multi_head(X, W_Q, W_K, W_V, W_O, h, scale=None, axis=-1, project=True):
    """Multi-head attention with the width split among heads, d_k = d_v = d_model // h.

    Returns (output (T, d_model), maps (h, T, T)). The keyword arguments exist
    so checkers can rebuild common mistakes (another scale, softmax over the
    wrong axis, no W_O) and name them.
    """
    d_model = X.shape[1]
    d_k = d_model // h
    heads, maps = [], []
    for i in range(h):
        block = slice(i * d_k, (i + 1) * d_k)  # the columns of head i
        head, A = attention(X @ W_Q[:, block], X @ W_K[:, block], X @ W_V[:, block], scale, axis)
        heads.append(head)  # (T, d_v)
        maps.append(A)  # (T, T)
    joined = np.concatenate(heads, axis=1)  # (T, h·d_v)
    return (joined @ W_O if project else joined), np.stack(maps)
