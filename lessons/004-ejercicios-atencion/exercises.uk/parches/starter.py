import numpy as np


def patches(image, side):
    C, H, W = image.shape
    rows, columns = H // side, W // side
    # розділіть кожну вісь на «котрий патч» і «де всередині патча», переставте осі й сплощіть
    return image.reshape(rows * columns, C * side * side)
