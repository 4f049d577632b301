import math


def softmax_temperature(s, T):
    top = max(s) / T
    e = [math.exp(v / T - top) for v in s]
    return [v / sum(e) for v in e]
