import numpy as np


def make_wq():
    return np.array([[0.0, -1.0],
                     [1.0, 0.0]])   # the query of tower = [0, -1]
