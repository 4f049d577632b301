import numpy as np


def construir_wq():
    # Las filas de X2: the [0, 0], Eiffel [0, 1], tower [1, 0]; los ejes son estructura y parisinidad.
    # La consulta de tower es x_tower @ Wq; las claves y los valores son los propios vectores.
    Wq = np.eye(2)   # por ahora, similitud bruta: cambia esta matriz
    return Wq
