

def peso_en_escrito(mapas, entrada, escritos):
    mismo = entrada[:, None, :] == escritos[:, :, None]   # (N, fila escrita, columna mirada)
    return (mapas * mismo).sum(axis=-1)                   # (N, T): el peso de cada fila en su dígito
