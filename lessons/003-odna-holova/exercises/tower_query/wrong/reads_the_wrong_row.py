import numpy as np


def make_wq():
    # паризькість веде в паризькість, але tower = [1, 0] читає лише перший рядок
    return np.array([[0.0, 0.0],
                     [0.0, 1.0]])
