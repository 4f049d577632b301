import numpy as np

from course.attention import softmax


def causal_attention(Q, K, V):
    T = Q.shape[-2]
    scores = Q @ K.T / np.sqrt(Q.shape[-1])
    # ховаємо майбутнє в оцінках, ще до softmax, а діагональ лишаємо видимою
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    scores = np.where(future, -np.inf, scores)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights
