def memoria_atencion(tokens, bloques, cabezas, bytes_por_peso):
    pesos_por_tabla = 0   # ¿cuántos pesos tiene una tabla de atención?
    tablas = 0            # ¿cuántas tablas hay en todo el modelo?
    return pesos_por_tabla * tablas * bytes_por_peso
