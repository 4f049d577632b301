def patches(image, side):
    C, H, W = image.shape
    rows, columns = H // side, W // side
    pieces = image.reshape(C, rows, side, columns, side)     # (c, patch row, y, patch column, x)
    pieces = pieces.transpose(1, 3, 0, 2, 4)                 # (row, column, c, y, x)
    return pieces.reshape(rows * columns, C * side * side)   # one flattened patch per row
