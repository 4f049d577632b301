def patches(image, side):
    C, H, W = image.shape
    rows, columns = H // side, W // side
    pieces = image.reshape(C, rows, side, columns, side)     # (c, рядок патчів, y, стовпець патчів, x)
    pieces = pieces.transpose(1, 3, 0, 2, 4)                 # (рядок, стовпець, c, y, x)
    return pieces.reshape(rows * columns, C * side * side)   # по одному сплощеному патчу в рядку
