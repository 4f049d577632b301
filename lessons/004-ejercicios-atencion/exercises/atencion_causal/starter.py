import numpy as np

from course.attention import softmax


def atencion_causal(Q, K, V):
    T = Q.shape[-2]
    puntuaciones = Q @ K.T / np.sqrt(Q.shape[-1])
    pesos = softmax(puntuaciones, axis=-1)
    # tapar el futuro
    futuro = np.triu(np.ones((T, T), dtype=bool), k=0)
    pesos = np.where(futuro, 0.0, pesos)
    return pesos @ V, pesos
