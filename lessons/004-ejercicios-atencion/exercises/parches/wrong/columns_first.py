def parches(imagen, lado):
    C, H, W = imagen.shape
    trozos = imagen.reshape(C, H // lado, lado, W // lado, lado).transpose(3, 1, 0, 2, 4)
    return trozos.reshape(-1, C * lado * lado)
