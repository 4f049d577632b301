import numpy as np


def positional_encoding(n_positions, d_model):
    table = np.zeros((n_positions, d_model))
    t = np.arange(n_positions)[:, None]  # (n_positions, 1): the positions 0, 1, 2, ...
    # one rate per pair of columns, 1 / 10000^(2i / d_model), then sines in the even columns, cosines in the odd
    ...
    return table
