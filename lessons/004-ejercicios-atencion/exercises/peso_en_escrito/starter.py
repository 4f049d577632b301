import numpy as np


def peso_en_escrito(mapas, entrada, escritos):
    # mapas: (N, T, T), fila = dígito escrito, columna = dígito mirado; entrada, escritos: (N, T)
    mismo = np.zeros(mapas.shape, dtype=bool)   # True donde la columna tiene el dígito que escribe la fila
    return (mapas * mismo).sum(axis=-1)
