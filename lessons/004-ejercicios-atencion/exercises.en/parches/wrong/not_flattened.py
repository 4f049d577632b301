def patches(image, side):
    C, H, W = image.shape
    return image.reshape(C, H // side, side, W // side, side).transpose(1, 3, 0, 2, 4)
