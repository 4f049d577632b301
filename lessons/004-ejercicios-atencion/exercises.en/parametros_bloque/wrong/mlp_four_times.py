def block_parameters(d_model, heads, d_mlp):
    attention = 4 * d_model * d_model + 4 * d_model
    hidden = 4 * d_model   # the usual width, not the one asked for
    mlp = d_model * hidden + hidden + hidden * d_model + d_model
    return attention + mlp + 4 * d_model
