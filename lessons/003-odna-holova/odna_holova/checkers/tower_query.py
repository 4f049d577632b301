"""Checker for lesson 003's challenge: make_wq() -> Wq (2, 2) (construir_wq() in Spanish), so that tower attends to Eiffel most.

The sentence is the lesson's 2-D toy: the [0, 0], Eiffel [0, 1], tower [1, 0] on the axes
structure and Parisness («паризькість»); keys and values are the inputs themselves (Wk = Wv = I) and
scores are divided by √2. tower's query is x_tower @ Wq, that is the first row of Wq.
Passing needs Eiffel's weight in tower's row to be larger than the weight of the and of
tower itself. A failure names the mistake: no matrix, a vector instead of a matrix, a query
against Paris, the column convention (Wq written transposed), a zero query, raw
similarity (the query still along structure), or a tie with tower.
Every message is one sentence in the page's language (Ukrainian for lesson.md, English for
lesson.en.md, Spanish for lesson.es.md), chosen when it is written: what was expected, what came back, a hint.
"""

import numpy as np

from course.attention import softmax
from course.checkers.common import Phrasebook
from course.numbers import number

from ..language import phrases

FUNCTION = {"uk": "make_wq", "en": "make_wq", "es": "construir_wq"}  # the name each edition asks for
TOKENS = ("the", "Eiffel", "tower")
X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]])  # (3, 2): the, Eiffel, tower
EIFFEL, TOWER = 1, 2
MARGIN = 1e-9  # Eiffel must win by more than rounding

BOOKS = {language: Phrasebook(language, signature="", pair="Wq", ending="Wq", advice="", shapes="", finite="")
         for language in ("uk", "en", "es")}
MESSAGES = {language: book.messages() for language, book in BOOKS.items()}
TEXT = {  # every sentence of this checker, per edition of the lesson
    "uk": {
        "raised": "Очікувалася матриця Wq, але make_wq() викинула {}: {}; прочитайте повідомлення й випробуйте функцію в "
                  "комірці.",
        "passed": "Правильно: з вашою Wq tower віддає Eiffel {}, більше, ніж the ({}) і собі ({}).",
        "none": "Очікувалася матриця Wq, але make_wq() повернула None; закінчіть функцію рядком «return Wq».",
        "not_numbers": "Очікувалася матриця чисел форми (2, 2), а make_wq() повернула {}.",
        "vector": "Очікувалася матриця форми (2, 2), а ви повернули вектор форми (2,), схоже, сам запит tower; поверніть "
                  "матрицю Wq, з якої запит виходить як x_tower @ Wq.",
        "shape": "Очікувалася матриця форми (2, 2): два рядки на дві координати входу й два стовпці, бо ключі мають дві "
                 "координати; а її форма {}.",
        "finite": "Матриця Wq містить NaN або нескінченності; запишіть у неї звичайні числа.",
        "zero": "Нульова Wq дає нульовий запит, тож усі три оцінки дорівнюють нулю й ваги tower рівні, {w}; запит tower "
                "мусить мати додатну координату паризькості.",
        "against": "Запит tower {q} має від'ємну координату паризькості й відштовхується від Eiffel: той отримує найменшу "
                   "вагу, {eiffel}; зробіть цю координату додатною.",
        "transposed": "Ваша матриця спрацювала б транспонованою: ви записали її в стовпцевих позначеннях (запит = Wq · x), "
                      "а код рахує запит як x @ Wq, тож запит tower вийшов {q}; транспонуйте Wq.",
        "first_row": "Запит tower нульовий, {q}: tower = [1, 0] читає лише перший рядок Wq, а в ньому самі нулі, тож ваги "
                     "рівні, {w}; запишіть потрібний запит у перший рядок.",
        "raw": "Запит tower {q} не має координати паризькості, тож Eiffel отримує ту саму оцінку, що й порожній the "
               "(ваги {w}): це досі сира схожість; запит tower має дивитися вздовж паризькості.",
        "tie": "Запит tower {q} дивиться на Eiffel, але структурна координата не менша за паризьку, тож tower отримує не "
               "менше, ніж Eiffel ({tower} проти {eiffel}); зробіть координату паризькості більшою за структурну.",
    },
    "en": {
        "raised": "A matrix Wq was expected, but make_wq() raised {}: {}; read the message and try the function in a cell.",
        "passed": "Right: with your Wq, tower gives Eiffel {}, more than it gives the ({}) or itself ({}).",
        "none": "A matrix Wq was expected, but make_wq() returned None; end the function with “return Wq”.",
        "not_numbers": "A matrix of numbers of shape (2, 2) was expected, but make_wq() returned {}.",
        "vector": "A matrix of shape (2, 2) was expected, but you returned a vector of shape (2,), probably the query of "
                  "tower itself; return the matrix Wq from which the query comes as x_tower @ Wq.",
        "shape": "A matrix of shape (2, 2) was expected, two rows for the two input coordinates and two columns because "
                 "the keys have two coordinates, but its shape is {}.",
        "finite": "The matrix Wq holds NaN or infinities; fill it with ordinary numbers.",
        "zero": "A zero Wq gives a zero query, so all three scores are zero and the weights of tower are equal, {w}; the "
                "query of tower needs a positive Parisness coordinate.",
        "against": "The query of tower, {q}, has a negative Parisness coordinate and pushes away from Eiffel, which gets "
                   "the smallest weight, {eiffel}; make that coordinate positive.",
        "transposed": "Your matrix would work transposed: you wrote it in column notation (query = Wq · x), but the code "
                      "computes the query as x @ Wq, so the query of tower came out as {q}; transpose Wq.",
        "first_row": "The query of tower is zero, {q}: tower = [1, 0] reads only the first row of Wq, and that row is all "
                     "zeros, so the weights are equal, {w}; write the query you want into the first row.",
        "raw": "The query of tower, {q}, has no Parisness coordinate, so Eiffel gets the same score as the empty the "
               "(weights {w}): this is still raw similarity; the query of tower has to point along Parisness.",
        "tie": "The query of tower, {q}, leans toward Eiffel, but its structure coordinate is no smaller than its "
               "Parisness coordinate, so tower gets at least as much as Eiffel ({tower} against {eiffel}); make the "
               "Parisness coordinate larger than the structure coordinate.",
    },
    "es": {
        "raised": "Se esperaba una matriz Wq, pero construir_wq() lanzó {}: {}; lee el mensaje y prueba la función en una "
                  "celda.",
        "passed": "Correcto: con tu Wq, tower da a Eiffel {}, más que a the ({}) y que a sí mismo ({}).",
        "none": "Se esperaba una matriz Wq, pero construir_wq() devolvió None; termina la función con «return Wq».",
        "not_numbers": "Se esperaba una matriz de números de forma (2, 2), pero construir_wq() devolvió {}.",
        "vector": "Se esperaba una matriz de forma (2, 2), pero devolviste un vector de forma (2,), seguramente la "
                  "consulta de tower; devuelve la matriz Wq, de la que la consulta sale como x_tower @ Wq.",
        "shape": "Se esperaba una matriz de forma (2, 2), dos filas para las dos coordenadas de la entrada y dos "
                 "columnas porque las claves tienen dos coordenadas, pero su forma es {}.",
        "finite": "La matriz Wq contiene NaN o infinitos; rellénala con números normales.",
        "zero": "Una Wq nula da una consulta nula, así que las tres puntuaciones valen cero y los pesos de tower son "
                "iguales, {w}; la consulta de tower necesita una coordenada de parisinidad positiva.",
        "against": "La consulta de tower, {q}, tiene la coordenada de parisinidad negativa y se aleja de Eiffel, que se "
                   "queda con el peso más pequeño, {eiffel}; haz positiva esa coordenada.",
        "transposed": "Tu matriz funcionaría traspuesta: la escribiste en notación de columnas (consulta = Wq · x), "
                      "pero el código calcula la consulta como x @ Wq, y la consulta de tower salió {q}; traspón Wq.",
        "first_row": "La consulta de tower es nula, {q}: tower = [1, 0] sólo lee la primera fila de Wq, y esa fila es "
                     "toda ceros, así que los pesos son iguales, {w}; escribe en la primera fila la consulta que "
                     "quieres.",
        "raw": "La consulta de tower, {q}, no tiene coordenada de parisinidad, así que Eiffel recibe la misma "
               "puntuación que el token vacío the (pesos {w}): sigue siendo similitud bruta; la consulta de tower tiene que "
               "apuntar hacia la parisinidad.",
        "tie": "La consulta de tower, {q}, se inclina hacia Eiffel, pero su coordenada de estructura no es menor que "
               "la de parisinidad, así que tower recibe al menos tanto peso como Eiffel ({tower} frente a {eiffel}); haz "
               "la coordenada de parisinidad mayor que la de estructura.",
    },
}


def weights(Wq):
    """tower's attention row (3,) with this Wq, Wk = I and scores divided by √2."""
    q = X[TOWER] @ Wq  # (2,)
    return softmax(X @ q / np.sqrt(2))


def wins(Wq):
    """True when Eiffel gets more of tower's attention than any other token."""
    w = weights(Wq)
    return bool(w[EIFFEL] > max(w[0], w[TOWER]) + MARGIN)


def check(function):
    """One result: the Wq that make_wq() returns, judged on the/Eiffel/tower."""
    say = phrases(TEXT)
    try:
        returned = function()
    except Exception as error:  # the learner's bug, reported as a sentence
        return [_fail(say["raised"].format(type(error).__name__, error))]
    problem = _matrix_problem(returned)
    if problem is None:
        Wq = np.asarray(returned, dtype=float)
        problem = None if wins(Wq) else _why_not(Wq)
    if problem:
        return [_fail(problem)]
    w = weights(np.asarray(returned, dtype=float))
    return [{"ok": True, "message": say["passed"].format(number(w[EIFFEL], ".4f"), number(w[0], ".4f"),
                                                         number(w[TOWER], ".4f"))}]


def _matrix_problem(returned):
    """A sentence if `returned` is not a finite 2×2 matrix of numbers, else None."""
    say = phrases(TEXT)
    if returned is None:
        return say["none"]
    try:
        Wq = np.asarray(returned, dtype=float)
    except (TypeError, ValueError):
        return say["not_numbers"].format(phrases(BOOKS).describe(returned))
    if Wq.shape == (2,):
        return say["vector"]
    if Wq.shape != (2, 2):
        return say["shape"].format(Wq.shape)
    if not np.all(np.isfinite(Wq)):
        return say["finite"]
    return None


def _why_not(Wq):
    """Name the mistake of a 2×2 Wq with which Eiffel does not win."""
    w = weights(Wq)
    q = X[TOWER] @ Wq  # (2,): the first row of Wq
    said = {"w": number(w, ".4f"), "q": number(q, ".2f"), "eiffel": number(w[EIFFEL], ".4f"),
            "tower": number(w[TOWER], ".4f")}
    say = phrases(TEXT)
    if np.allclose(Wq, 0.0):
        return say["zero"].format(**said)
    if q[1] < 0:
        return say["against"].format(**said)
    if wins(Wq.T):
        return say["transposed"].format(**said)
    if np.allclose(q, 0.0):
        return say["first_row"].format(**said)
    if np.isclose(q[1], 0.0):
        return say["raw"].format(**said)
    return say["tie"].format(**said)


def _fail(message):
    """A failed result with its sentence."""
    return {"ok": False, "message": message}
