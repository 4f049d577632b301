def block_parameters(d_model, heads, d_mlp):
    attention = 4 * d_model * d_model + 4 * d_model
    mlp = 2 * d_model * d_mlp
    return attention + mlp + 2 * (d_model + d_model)
