import numpy as np


def parches(imagen, lado):
    C, H, W = imagen.shape
    n = H // lado
    cortes = [imagen[:, f * lado:(f + 1) * lado, c * lado:(c + 1) * lado].ravel() for f in range(n) for c in range(n)]
    return np.array(cortes)
