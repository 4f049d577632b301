"""What lesson 004's exercise sheet needs beyond the toolkit: the digit task's constants and a training log.

LARGO, DIGITOS   the sorting task: sequences of 8 digits, each from 0 to 9.
entrenar_secuencias(modelo, X, Y, X_val, Y_val, **opciones)
                 course.nn.train.train_sequences (progress bar, Stop between steps),
                 then its per-epoch report printed as a table in the page's language.
The English and Ukrainian editions' cells use the English names LENGTH, DIGITS and train_with_table: the same
objects.
"""

import contextlib
import io

from course.nn.train import train_sequences
from course.numbers import current_language, number

LARGO = 8
DIGITOS = 10
WORDS = {  # the table's words per language, and its last column's width; another language gets the English ones
    "es": {"heading": "época  pérdida  dígitos  secuencias", "stopped": "detenido durante la época {}",
           "epoch": "época", "percent": " %", "width": 10},
    "en": {"heading": "epoch     loss   digits   sequences", "stopped": "stopped during epoch {}", "epoch": "epoch",
           "percent": "%", "width": 10},
    "uk": {"heading": "епоха   втрата    цифри  послідовності", "stopped": "зупинено під час епохи {}",
           "epoch": "епоха", "percent": " %", "width": 13},
}


def words():
    """The table's words in the page's language."""
    return WORDS.get(current_language(), WORDS["en"])


def fila(registro):
    """One row of the table for one epoch's record (loss, digit and sequence accuracy on held-out data)."""
    return "{:5d}  {:>7}  {:>7}  {:>{width}}".format(
        registro["epoch"], number(registro["loss"], ".3f"), number(100 * registro["digits"], ".1f") + words()["percent"],
        number(100 * registro["sequences"], ".1f") + words()["percent"], width=words()["width"])


def tabla(historia):
    """The whole per-epoch table, header first, and a closing line if training was stopped."""
    lineas = [words()["heading"]] + [fila(registro) for registro in historia]
    if historia and historia[-1].get("stopped"):
        lineas.append(words()["stopped"].format(historia[-1]["epoch"]))
    return "\n".join(lineas)


async def entrenar_secuencias(modelo, X, Y, X_val, Y_val, **opciones):
    """Train like train_sequences, then print the per-epoch table; returns the same history."""
    # The toolkit prints its own per-epoch lines in English; they are set aside and only its progress bar is kept.
    # The table comes after training: a page keeps the progress bar where it first appeared, so text printed
    # during training would land on the other side of the bar in the page than in the build's output.
    with contextlib.redirect_stdout(io.StringIO()):
        historia = await train_sequences(modelo, X, Y, X_val, Y_val, report=True, label=words()["epoch"], **opciones)
    print(tabla(historia))
    return historia


# English names for the English edition's cells: the same definitions.
LENGTH = LARGO
DIGITS = DIGITOS
train_with_table = entrenar_secuencias
