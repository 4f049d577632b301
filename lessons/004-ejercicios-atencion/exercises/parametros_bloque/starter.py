def parametros_bloque(d_modelo, cabezas, d_mlp):
    atencion = 0          # cuatro matrices de d_modelo × d_modelo, cada una con su sesgo
    mlp = 0               # dos capas lineales, con sus sesgos
    normalizaciones = 0   # dos normalizaciones de capa: escala y desplazamiento
    return atencion + mlp + normalizaciones
