

def peso_en_escrito(mapas, entrada, escritos):
    mismo = entrada[:, None, :] == escritos[:, :, None]
    fuerte = mapas.max(axis=-1)
    return fuerte * mismo.any(axis=-1)
