import numpy as np


def make_wq():
    return np.array([[1.0, 1.0],
                     [0.0, 0.0]])   # query [1, 1]: Eiffel level with tower
