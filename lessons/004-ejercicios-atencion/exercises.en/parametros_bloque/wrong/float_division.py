def block_parameters(d_model, heads, d_mlp):
    d_k = d_model / heads
    attention = 4 * d_model * (d_k * heads) + 4 * d_model
    mlp = d_model * d_mlp + d_mlp + d_mlp * d_model + d_model
    return attention + mlp + 4 * d_model
