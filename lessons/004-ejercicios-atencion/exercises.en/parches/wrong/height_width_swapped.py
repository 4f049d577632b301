def patches(image, side):
    C, H, W = image.shape
    turned = image.transpose(0, 2, 1)
    pieces = turned.reshape(C, W // side, side, H // side, side).transpose(1, 3, 0, 2, 4)
    return pieces.reshape(-1, C * side * side)
