def parametros_bloque(d_modelo, cabezas, d_mlp):
    atencion = 4 * d_modelo * d_modelo + 4 * d_modelo          # Q, K, V y salida, con sus sesgos
    mlp = d_modelo * d_mlp + d_mlp + d_mlp * d_modelo + d_modelo
    normalizaciones = 2 * (d_modelo + d_modelo)                # escala y desplazamiento, dos veces
    return atencion + mlp + normalizaciones                    # las cabezas no cambian nada
