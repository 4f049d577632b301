def block_parameters(d_model, heads, d_mlp):
    attention = heads * (4 * d_model * d_model + 4 * d_model)
    mlp = d_model * d_mlp + d_mlp + d_mlp * d_model + d_model
    return attention + mlp + 4 * d_model
