"""What lesson 004's exercise sheet needs beyond the toolkit: the digit task's constants and a Spanish training log.

LARGO, DIGITOS   the sorting task: sequences of 8 digits, each from 0 to 9.
entrenar_secuencias(modelo, X, Y, X_val, Y_val, **opciones)
                 course.nn.train.train_sequences (progress bar, Stop between steps),
                 with its per-epoch report printed as a Spanish table.
"""

import contextlib
import io
import sys

from course.nn.train import train_sequences

LARGO = 8
DIGITOS = 10
CABECERA = "época  pérdida  dígitos  secuencias"
FILA = "{epoch:5d}  {loss:7.3f}  {digits:6.1%}  {sequences:9.1%}"


def fila(registro):
    """One row of the table for one epoch's record (loss, digit and sequence accuracy on held-out data)."""
    return FILA.format(**registro)


async def entrenar_secuencias(modelo, X, Y, X_val, Y_val, **opciones):
    """Train like train_sequences and print one Spanish row per epoch; returns the same history."""
    pantalla = sys.stdout
    print(CABECERA)

    def anotar(registro):
        print(fila(registro), file=pantalla)

    # The toolkit prints its own per-epoch lines in English; they are set aside, its progress bar is kept.
    with contextlib.redirect_stdout(io.StringIO()):
        historia = await train_sequences(modelo, X, Y, X_val, Y_val, on_epoch=anotar, report=True,
                                         label="época", **opciones)
    if historia and historia[-1].get("stopped"):
        print("detenido en la época {}: {}".format(historia[-1]["epoch"], fila(historia[-1]).strip()))
    return historia
