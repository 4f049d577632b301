import numpy as np


def peso_en_escrito(mapas, entrada, escritos):
    return np.diagonal(mapas, axis1=1, axis2=2) * (entrada == escritos)
