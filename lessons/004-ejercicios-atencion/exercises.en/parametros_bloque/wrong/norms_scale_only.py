def block_parameters(d_model, heads, d_mlp):
    attention = 4 * d_model * d_model + 4 * d_model
    mlp = d_model * d_mlp + d_mlp + d_mlp * d_model + d_model
    norms = 2 * d_model   # forgets the shift
    return attention + mlp + norms
