def softmax_temperatura(s, T):
    z = s / T
    return z / z.sum()
