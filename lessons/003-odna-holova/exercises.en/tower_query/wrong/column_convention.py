import numpy as np


def make_wq():
    # “query = Wq · x”, as in a linear algebra textbook
    return np.array([[0.0, 0.0],
                     [1.0, 0.0]])
