import numpy as np


def weight_on_written(maps, inputs, written):
    same = inputs[:, None, :] == written[:, :, None]             # (N, T, T)
    first = same.argmax(axis=-1)                                 # the first column with the digit
    weight = np.take_along_axis(maps, first[..., None], axis=-1)[..., 0]
    return weight * same.any(axis=-1)
