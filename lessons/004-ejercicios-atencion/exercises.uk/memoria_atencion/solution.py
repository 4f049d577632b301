def attention_memory(tokens, blocks, heads, bytes_per_weight):
    weights_per_table = tokens ** 2   # кожен токен дивиться на всі
    tables = blocks * heads           # по одній на кожну голову кожного блоку
    return weights_per_table * tables * bytes_per_weight
