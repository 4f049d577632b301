def attention_memory(tokens, blocks, heads, bytes_per_weight):
    return tokens ** 2 * blocks * heads * bytes_per_weight / 1e9
