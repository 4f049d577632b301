import numpy as np


def positional_encoding(n_positions, d_model):
    table = np.zeros((n_positions, d_model))
    for t in range(n_positions):
        for j in range(d_model):
            angle = t / 10000 ** (j / d_model)
            table[t, j] = np.sin(angle) if j % 2 == 0 else np.cos(angle)
    return table
