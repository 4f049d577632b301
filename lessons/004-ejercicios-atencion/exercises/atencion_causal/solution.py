import numpy as np

from course.attention import softmax


def atencion_causal(Q, K, V):
    T = Q.shape[-2]
    puntuaciones = Q @ K.T / np.sqrt(Q.shape[-1])
    # tapar el futuro sobre las puntuaciones, antes del softmax, y dejar la diagonal visible
    futuro = np.triu(np.ones((T, T), dtype=bool), k=1)
    puntuaciones = np.where(futuro, -np.inf, puntuaciones)
    pesos = softmax(puntuaciones, axis=-1)
    return pesos @ V, pesos
