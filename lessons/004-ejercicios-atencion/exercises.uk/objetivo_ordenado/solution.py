import numpy as np


def sorted_target(X):
    return np.sort(X, axis=1)   # кожен рядок окремо, у новому масиві
