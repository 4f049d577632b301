def patches(image, side):
    C, H, W = image.shape
    pieces = image.reshape(C, H // side, side, W // side, side).transpose(3, 1, 0, 2, 4)
    return pieces.reshape(-1, C * side * side)
