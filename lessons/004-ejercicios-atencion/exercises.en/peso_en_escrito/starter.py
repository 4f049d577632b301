import numpy as np


def weight_on_written(maps, inputs, written):
    # maps: (N, T, T), row = digit written, column = digit looked at; inputs, written: (N, T)
    same = np.zeros(maps.shape, dtype=bool)   # True where the column holds the digit the row writes
    return (maps * same).sum(axis=-1)
