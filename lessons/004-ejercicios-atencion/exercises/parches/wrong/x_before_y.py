def parches(imagen, lado):
    C, H, W = imagen.shape
    trozos = imagen.reshape(C, H // lado, lado, W // lado, lado).transpose(1, 3, 0, 4, 2)
    return trozos.reshape(-1, C * lado * lado)
