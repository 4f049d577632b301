def parametros_bloque(d_modelo, cabezas, d_mlp):
    atencion = 4 * d_modelo * d_modelo + 4 * d_modelo
    mlp = d_modelo * d_mlp + d_mlp + d_mlp * d_modelo + d_modelo
    normalizaciones = 2 * d_modelo   # olvida el desplazamiento
    return atencion + mlp + normalizaciones
