import numpy as np


def sorted_target(X):
    # X: (послідовності, LENGTH); ціль кожної послідовності — вона сама, від меншого до більшого
    return X
