import numpy as np


def patches(image, side):
    C, H, W = image.shape
    n = H // side
    cuts = [image[:, f * side:(f + 1) * side, c * side:(c + 1) * side].ravel() for f in range(n) for c in range(n)]
    return np.array(cuts)
