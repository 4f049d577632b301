def parametros_bloque(d_modelo, cabezas, d_mlp):
    atencion = 4 * d_modelo * d_modelo + 4 * d_modelo
    mlp = 2 * d_modelo * d_mlp
    return atencion + mlp + 2 * (d_modelo + d_modelo)
