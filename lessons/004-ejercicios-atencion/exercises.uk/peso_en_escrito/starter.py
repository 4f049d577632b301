import numpy as np


def weight_on_written(maps, inputs, written):
    # maps: (N, T, T), рядок = записана цифра, стовпець = цифра, на яку дивляться; inputs, written: (N, T)
    same = np.zeros(maps.shape, dtype=bool)   # True там, де в стовпці цифра, яку пише рядок
    return (maps * same).sum(axis=-1)
