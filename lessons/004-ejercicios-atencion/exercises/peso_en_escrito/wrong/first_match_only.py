import numpy as np


def peso_en_escrito(mapas, entrada, escritos):
    mismo = entrada[:, None, :] == escritos[:, :, None]          # (N, T, T)
    primera = mismo.argmax(axis=-1)                              # la primera columna con el dígito
    peso = np.take_along_axis(mapas, primera[..., None], axis=-1)[..., 0]
    return peso * mismo.any(axis=-1)
