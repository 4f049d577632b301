def attention_memory(tokens, blocks, heads, bytes_per_weight):
    weights_per_table = tokens ** 2   # every token looks at all of them
    tables = blocks * heads           # one per head of every block
    return weights_per_table * tables * bytes_per_weight
