def patches(image, side):
    C, H, W = image.shape
    n = H // side
    return [image[:, f * side:(f + 1) * side, c * side:(c + 1) * side].ravel() for f in range(n) for c in range(n)]
