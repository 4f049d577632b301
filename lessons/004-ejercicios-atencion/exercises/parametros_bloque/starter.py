def parametros_bloque(d_modelo, cabezas, d_mlp):
    atencion = 0          # cuatro matrices con sus sesgos
    mlp = 0               # dos capas lineales con sus sesgos
    normalizaciones = 0   # dos: escala y desplazamiento
    return atencion + mlp + normalizaciones
