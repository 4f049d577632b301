def memoria_atencion(tokens, bloques, cabezas, bytes_por_peso):
    return tokens * 2 * bloques * cabezas * bytes_por_peso
