import numpy as np


def softmax_temperature(s, T):
    z = s / T                 # температура ділить оцінки
    e = np.exp(z - z.max())   # віднімаємо максимум, щоб exp не переповнилася
    return e / e.sum()
