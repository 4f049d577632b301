import numpy as np


def multi_head(X, Wq, Wk, Wv, Wo, h):
    d_k = X.shape[1] // h
    salidas, mapas = [], []
    for i in range(h):
        bloque = slice(i * d_k, (i + 1) * d_k)  # las columnas de la cabeza i
        # Q, K y V de esta cabeza, su mapa A (T, T) y su salida A @ V
        ...
    # concatena las salidas por columnas, proyecta con Wo y apila los mapas
    return salida, A
