import numpy as np


def weight_on_written(maps, inputs, written):
    return np.diagonal(maps, axis1=1, axis2=2) * (inputs == written)
