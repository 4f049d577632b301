def weight_on_written(maps, inputs, written):
    same = inputs[:, None, :] == written[:, :, None]
    return (maps * same).sum(axis=1)
