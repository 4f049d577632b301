def block_parameters(d_model, heads, d_mlp):
    attention = 4 * d_model * d_model + 4 * d_model   # Q, K, V і вихід, зі зсувами
    mlp = d_model * d_mlp + d_mlp + d_mlp * d_model + d_model
    norms = 2 * (d_model + d_model)                   # масштаб і зсув, двічі
    return attention + mlp + norms                    # голови нічого не змінюють
