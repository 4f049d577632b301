def weight_on_written(maps, inputs, written):
    same = inputs[:, None, :] == written[:, :, None]   # (N, written row, column looked at)
    return (maps * same).sum(axis=-1)                  # (N, T): each row's weight on its digit
