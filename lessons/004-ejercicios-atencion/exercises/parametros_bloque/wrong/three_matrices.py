def parametros_bloque(d_modelo, cabezas, d_mlp):
    atencion = 3 * (d_modelo * d_modelo + d_modelo)   # Q, K y V, sin la salida
    mlp = d_modelo * d_mlp + d_mlp + d_mlp * d_modelo + d_modelo
    return atencion + mlp + 4 * d_modelo
