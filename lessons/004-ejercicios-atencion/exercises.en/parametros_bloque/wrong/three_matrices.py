def block_parameters(d_model, heads, d_mlp):
    attention = 3 * (d_model * d_model + d_model)   # Q, K and V, without the output
    mlp = d_model * d_mlp + d_mlp + d_mlp * d_model + d_model
    return attention + mlp + 4 * d_model
