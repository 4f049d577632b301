def parches(imagen, lado):
    C, H, W = imagen.shape
    return imagen.reshape(C, H // lado, lado, W // lado, lado).transpose(1, 3, 0, 2, 4)
