import numpy as np


def make_wq():
    return np.array([[1.0, 1.0],
                     [0.0, 0.0]])   # запит [1, 1]: Eiffel нарівні з tower
