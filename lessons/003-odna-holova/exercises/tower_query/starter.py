import numpy as np


def make_wq():
    # Рядки X2: the [0, 0], Eiffel [0, 1], tower [1, 0]; осі — структура й паризькість.
    # Запит tower — це x_tower @ Wq; ключі й значення — самі вектори.
    Wq = np.eye(2)   # поки що сира схожість: змініть цю матрицю
    return Wq
