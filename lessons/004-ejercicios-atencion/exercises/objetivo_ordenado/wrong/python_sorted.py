def objetivo_ordenado(X):
    return [sorted(fila) for fila in X]
