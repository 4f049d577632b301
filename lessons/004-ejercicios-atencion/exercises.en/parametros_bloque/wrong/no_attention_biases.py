def block_parameters(d_model, heads, d_mlp):
    attention = 4 * d_model * d_model
    mlp = d_model * d_mlp + d_mlp + d_mlp * d_model + d_model
    return attention + mlp + 2 * (d_model + d_model)
