import numpy as np


def make_wq():
    return np.eye(2)   # сира схожість: tower шукає схоже на себе
