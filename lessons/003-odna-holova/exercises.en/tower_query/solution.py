import numpy as np


def make_wq():
    # tower = [1, 0] reads the first row of Wq: let that row send structure to Parisness.
    Wq = np.array([[0.0, 1.0],
                   [1.0, 0.0]])
    return Wq
