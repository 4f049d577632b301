def block_parameters(d_model, heads, d_mlp):
    attention = 0   # four matrices with their biases
    mlp = 0         # two linear layers with their biases
    norms = 0       # two of them: scale and shift
    return attention + mlp + norms
