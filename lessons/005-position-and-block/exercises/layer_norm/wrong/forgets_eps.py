
def layer_norm(x, eps):
    mean = x.mean(axis=-1, keepdims=True)
    return (x - mean) / x.std(axis=-1, keepdims=True)
