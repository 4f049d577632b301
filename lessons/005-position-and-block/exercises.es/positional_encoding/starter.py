import numpy as np


def positional_encoding(n_positions, d_model):
    table = np.zeros((n_positions, d_model))
    t = np.arange(n_positions)[:, None]  # (n_positions, 1): las posiciones 0, 1, 2, ...
    # una frecuencia por pareja de columnas, 1 / 10000^(2i / d_model); senos en las columnas pares, cosenos en las impares
    ...
    return table
