def parametros_bloque(d_modelo, cabezas, d_mlp):
    atencion = cabezas * (4 * d_modelo * d_modelo + 4 * d_modelo)
    mlp = d_modelo * d_mlp + d_mlp + d_mlp * d_modelo + d_modelo
    return atencion + mlp + 4 * d_modelo
