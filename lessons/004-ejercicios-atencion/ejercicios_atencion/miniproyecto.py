"""The two pieces of lesson 004's mini-project that the learner writes as exercises, as the course's cells use them.

objetivo_ordenado(X)                   (N, T) digits -> (N, T): each sequence sorted, smallest first.
peso_en_escrito(mapas, entrada, escritos)
                                       (N, T, T) one head's maps, (N, T) input digits, (N, T) written digits
                                       -> (N, T): how much of each row's weight lands on columns holding the
                                       digit that row writes.
English names (the English edition's cells): sorted_target, weight_on_written.
"""

import numpy as np


def objetivo_ordenado(X):
    """Every sequence (a row of X) sorted from smallest to largest, in a new array."""
    return np.sort(X, axis=1)


def peso_en_escrito(mapas, entrada, escritos):
    """The share of each row's attention on the columns whose input digit is the digit the row writes."""
    mismo = entrada[:, None, :] == escritos[:, :, None]   # (N, fila escrita, columna mirada)
    return (mapas * mismo).sum(axis=-1)                   # (N, T)


# English names for the English edition's cells: the same definitions.
sorted_target = objetivo_ordenado
weight_on_written = peso_en_escrito
