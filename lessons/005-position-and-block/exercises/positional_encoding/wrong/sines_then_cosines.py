import numpy as np


def positional_encoding(n_positions, d_model):
    t = np.arange(n_positions)[:, None]
    rates = 1.0 / 10000 ** (np.arange(0, d_model, 2) / d_model)
    return np.concatenate([np.sin(t * rates), np.cos(t * rates[: d_model // 2])], axis=1)
