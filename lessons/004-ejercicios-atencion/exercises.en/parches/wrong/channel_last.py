def patches(image, side):
    C, H, W = image.shape
    pieces = image.reshape(C, H // side, side, W // side, side).transpose(1, 3, 2, 4, 0)
    return pieces.reshape(-1, C * side * side)
