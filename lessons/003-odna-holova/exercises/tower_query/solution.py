import numpy as np


def make_wq():
    # tower = [1, 0] читає перший рядок Wq: хай він веде структуру в паризькість.
    Wq = np.array([[0.0, 1.0],
                   [1.0, 0.0]])
    return Wq
