import numpy as np


def make_wq():
    Wq = np.array([[0.0, 1.0],
                   [1.0, 0.0]])
    print(Wq)   # printed, but not returned
