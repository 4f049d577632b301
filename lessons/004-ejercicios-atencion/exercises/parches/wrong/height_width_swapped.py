def parches(imagen, lado):
    C, H, W = imagen.shape
    girada = imagen.transpose(0, 2, 1)
    trozos = girada.reshape(C, W // lado, lado, H // lado, lado).transpose(1, 3, 0, 2, 4)
    return trozos.reshape(-1, C * lado * lado)
