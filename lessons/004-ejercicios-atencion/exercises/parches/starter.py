import numpy as np


def parches(imagen, lado):
    C, H, W = imagen.shape
    filas, columnas = H // lado, W // lado
    # separa cada eje en «qué parche» y «dónde dentro del parche», reordena y aplana
    return imagen.reshape(filas * columnas, C * lado * lado)
