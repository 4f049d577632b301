def patches(image, side):
    C, H, W = image.shape
    pieces = image.reshape(C, H // side, side, W // side, side).transpose(1, 3, 0, 4, 2)
    return pieces.reshape(-1, C * side * side)
