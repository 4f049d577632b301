import numpy as np


def positional_encoding(n_positions, d_model):
    table = np.zeros((n_positions, d_model))
    t = np.arange(n_positions)[:, None]
    rates = 1.0 / 10000 ** (np.arange(0, d_model, 2) / d_model)
    angles = np.radians(t * rates)
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles[:, : d_model // 2])
    return table
