def memoria_atencion(tokens, bloques, cabezas, bytes_por_peso):
    pesos_por_tabla = tokens ** 2        # cada token mira a todos
    tablas = bloques * cabezas           # una por cabeza de cada bloque
    return pesos_por_tabla * tablas * bytes_por_peso
