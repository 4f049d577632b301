import numpy as np


def positional_encoding(n_positions, d_model):
    table = np.zeros((n_positions, d_model))
    t = np.arange(n_positions)[:, None]  # (n_positions, 1): позиції 0, 1, 2, ...
    # одна частота на пару стовпців, 1 / 10000^(2i / d_model); синуси в парних стовпцях, косинуси в непарних
    ...
    return table
