import numpy as np

from course.attention import softmax


def causal_attention(Q, K, V):
    T = Q.shape[-2]
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    weights = softmax(scores, axis=-1)
    # ховаємо майбутнє
    future = np.triu(np.ones((T, T), dtype=bool), k=0)
    weights = np.where(future, 0.0, weights)
    return weights @ V, weights
