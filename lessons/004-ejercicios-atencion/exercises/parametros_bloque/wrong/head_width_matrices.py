def parametros_bloque(d_modelo, cabezas, d_mlp):
    d_k = d_modelo // cabezas
    atencion = 4 * d_k * d_k + 4 * d_modelo
    mlp = d_modelo * d_mlp + d_mlp + d_mlp * d_modelo + d_modelo
    return atencion + mlp + 4 * d_modelo
