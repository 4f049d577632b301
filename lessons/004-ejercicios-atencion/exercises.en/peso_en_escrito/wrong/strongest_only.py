def weight_on_written(maps, inputs, written):
    same = inputs[:, None, :] == written[:, :, None]
    strongest = maps.max(axis=-1)
    return strongest * same.any(axis=-1)
