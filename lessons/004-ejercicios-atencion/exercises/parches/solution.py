

def parches(imagen, lado):
    C, H, W = imagen.shape
    filas, columnas = H // lado, W // lado
    trozos = imagen.reshape(C, filas, lado, columnas, lado)   # (c, fila de parches, y, columna de parches, x)
    trozos = trozos.transpose(1, 3, 0, 2, 4)                  # (fila, columna, c, y, x)
    return trozos.reshape(filas * columnas, C * lado * lado)  # un parche aplanado por fila
