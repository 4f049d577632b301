def block_parameters(d_model, heads, d_mlp):
    attention = 4 * d_model * d_model + 4 * d_model   # Q, K, V and output, with their biases
    mlp = d_model * d_mlp + d_mlp + d_mlp * d_model + d_model
    norms = 2 * (d_model + d_model)                   # scale and shift, twice
    return attention + mlp + norms                    # the heads change nothing
