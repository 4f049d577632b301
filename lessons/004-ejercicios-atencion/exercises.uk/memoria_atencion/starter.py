def attention_memory(tokens, blocks, heads, bytes_per_weight):
    weights_per_table = 0   # скільки ваг у одній таблиці уваги?
    tables = 0              # скільки таблиць у всій моделі?
    return weights_per_table * tables * bytes_per_weight
