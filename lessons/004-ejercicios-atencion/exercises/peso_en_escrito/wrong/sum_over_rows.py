def peso_en_escrito(mapas, entrada, escritos):
    mismo = entrada[:, None, :] == escritos[:, :, None]
    return (mapas * mismo).sum(axis=1)
