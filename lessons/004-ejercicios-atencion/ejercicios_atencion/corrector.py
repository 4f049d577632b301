"""What the checkers of lesson 004's one-value exercises share, on top of course.checkers.common.

call(function, args, case)   the learner's function run on copies checked afterwards:
                             (returned value, None), or (None, a Spanish sentence) if it
                             raised or wrote into an array it received.
integer_problem(value, case) a sentence if `value` is not a whole number of type int, else None.
rebuilt(value, variants)     the sentence of the first known mistake whose result equals `value`.
"""

import numbers

import numpy as np

from course.checkers.common import Phrasebook
from course.numbers import number


def phrasebook(signature, ending):
    """The common Spanish phrases, filled with one exercise's signature and how its function ends."""
    return Phrasebook("es", signature=signature, pair="el resultado", ending=ending,
                      advice="calcula en arrays nuevos en lugar de escribir en los que recibes",
                      shapes="comprueba las formas de cada paso", finite="revisa cada paso de la cuenta")


def call(function, args, case):
    """Run the learner's function on `args`; (value, None), or (None, sentence) if it raised or changed an input."""
    copies = [np.array(arg, copy=True) if isinstance(arg, np.ndarray) else arg for arg in args]
    try:
        value = function(*args)
    except Exception as error:  # the learner's bug, reported as a sentence
        return None, "Con {} tu función lanzó {}: {}; lee el mensaje y pruébala en una celda con esos datos.".format(
            case, type(error).__name__, error)
    for arg, copy in zip(args, copies):
        if isinstance(arg, np.ndarray) and (arg.shape != copy.shape or not np.array_equal(arg, copy)):
            return None, ("Con {} tu función modificó el array que recibe, que debía quedar intacto; calcula en "
                          "un array nuevo (s / T, no s /= T).".format(case))
    return value, None


def integer_problem(value, case, say):
    """A sentence if `value` is not an int (Python's or NumPy's), else None."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, float) and value == int(value):
            return ("Con {} se esperaba un número entero (int), pero tu función devolvió {} con decimales; una "
                    "división con / da un float: usa números enteros o int(...).".format(case, number(value)))
        return "Con {} se esperaba un número entero (int), pero tu función devolvió {}.".format(
            case, say.describe(value) if not isinstance(value, numbers.Number) else number(value))
    return None


def rebuilt(value, variants):
    """The sentence of the first (result, sentence) pair whose result equals `value`, or None."""
    for result, sentence in variants:
        if np.shape(value) == np.shape(result) and np.allclose(value, result, rtol=1e-9, atol=1e-12):
            return sentence
    return None
