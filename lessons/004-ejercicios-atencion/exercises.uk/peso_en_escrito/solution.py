def weight_on_written(maps, inputs, written):
    same = inputs[:, None, :] == written[:, :, None]   # (N, рядок, що пише, стовпець, на який дивиться)
    return (maps * same).sum(axis=-1)                  # (N, T): вага кожного рядка на його цифрі
