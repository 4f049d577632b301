def parches(imagen, lado):
    C, H, W = imagen.shape
    trozos = imagen.reshape(C, H // lado, lado, W // lado, lado).transpose(1, 3, 2, 4, 0)
    return trozos.reshape(-1, C * lado * lado)
