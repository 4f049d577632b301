import numpy as np


def make_wq():
    # Parisness goes to Parisness, but tower = [1, 0] reads only the first row
    return np.array([[0.0, 0.0],
                     [0.0, 1.0]])
