def objetivo_ordenado(X):
    X.sort(axis=1)
    return X
