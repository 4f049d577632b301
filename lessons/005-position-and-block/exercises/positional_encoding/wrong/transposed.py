import numpy as np


def positional_encoding(n_positions, d_model):
    table = np.zeros((d_model, n_positions))
    t = np.arange(n_positions)[None, :]
    rates = 1.0 / 10000 ** (np.arange(0, d_model, 2) / d_model)
    table[0::2] = np.sin(rates[:, None] * t)
    table[1::2] = np.cos(rates[: d_model // 2, None] * t)
    return table
