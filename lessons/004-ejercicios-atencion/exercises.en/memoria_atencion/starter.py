def attention_memory(tokens, blocks, heads, bytes_per_weight):
    weights_per_table = 0   # how many weights does one attention table hold?
    tables = 0              # how many tables are there in the whole model?
    return weights_per_table * tables * bytes_per_weight
