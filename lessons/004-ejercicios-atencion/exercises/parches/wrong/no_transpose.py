def parches(imagen, lado):
    C, H, W = imagen.shape
    return imagen.reshape((H // lado) * (W // lado), C * lado * lado)
