import numpy as np


def softmax_temperatura(s, T):
    z = s / T                       # la temperatura divide las puntuaciones
    e = np.exp(z - z.max())         # restar el máximo evita que exp se desborde
    return e / e.sum()
