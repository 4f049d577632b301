import numpy as np


def positional_encoding(n_positions, d_model):
    table = np.zeros((n_positions, d_model))
    t = np.arange(n_positions)[:, None]               # (n_positions, 1)
    rates = 1.0 / 10000 ** (np.arange(0, d_model, 2) / d_model)  # (ceil(d_model / 2),)
    table[:, 0::2] = np.sin(t * rates)
    table[:, 1::2] = np.cos(t * rates[: d_model // 2])  # на один стовпець косинусів менше, коли d_model непарне
    return table
