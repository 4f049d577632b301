import numpy as np

from course.attention import softmax


def atencion_causal(Q, K, V):
    T = Q.shape[-2]
    puntajes = Q @ K.T / np.sqrt(Q.shape[-1])
    # tapar el futuro sobre los puntajes, antes del softmax, y dejar la diagonal visible
    futuro = np.triu(np.ones((T, T), dtype=bool), k=1)
    puntajes = np.where(futuro, -np.inf, puntajes)
    pesos = softmax(puntajes, axis=-1)
    return pesos @ V, pesos
