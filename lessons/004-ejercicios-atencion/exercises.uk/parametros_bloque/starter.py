def block_parameters(d_model, heads, d_mlp):
    attention = 0   # чотири матриці з їхніми зсувами
    mlp = 0         # два лінійні шари з їхніми зсувами
    norms = 0       # їх дві: масштаб і зсув
    return attention + mlp + norms
