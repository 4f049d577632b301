def softmax_temperature(s, T):
    z = s / T
    return z / z.sum()
