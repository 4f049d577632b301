def patches(image, side):
    C, H, W = image.shape
    return image.reshape((H // side) * (W // side), C * side * side)
