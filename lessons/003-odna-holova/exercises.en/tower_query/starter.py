import numpy as np


def make_wq():
    # The rows of X2: the [0, 0], Eiffel [0, 1], tower [1, 0]; the axes are structure and Parisness.
    # The query of tower is x_tower @ Wq; the keys and values are the vectors themselves.
    Wq = np.eye(2)   # raw similarity for now: change this matrix
    return Wq
