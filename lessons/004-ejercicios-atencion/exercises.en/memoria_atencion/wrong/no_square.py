def attention_memory(tokens, blocks, heads, bytes_per_weight):
    return tokens * blocks * heads * bytes_per_weight
