"""What the checkers of lesson 004's one-value exercises share, on top of course.checkers.common.

Every sentence is written in the language of the page that asks (course.numbers.current_language()),
chosen when the checker runs; the lesson has a Spanish edition, an English one and a Ukrainian one.

language()                   the language the checkers write in now: the page's, or English for any other.
phrasebooks(signature, ending)
                             one course.checkers.common.Phrasebook per language, from {language: words}.
Sentences(table)             a checker's own sentences, {language: {key: sentence}}; .say(key, ...) fills one.
call(function, args, case)   the learner's function run on copies checked afterwards:
                             (returned value, None), or (None, a sentence) if it raised or wrote
                             into an array it received.
integer_problem(value, case, say)
                             a sentence if `value` is not a whole number of type int, else None.
rebuilt(value, variants)     the sentence of the first known mistake whose result equals `value`.
"""

import numbers

import numpy as np

from course.checkers.common import Phrasebook
from course.numbers import current_language, number

LANGUAGES = ("es", "en", "uk")
WORDS = {  # what the shared phrases of course.checkers.common say about these exercises
    "es": {"pair": "el resultado", "advice": "calcula en arrays nuevos en lugar de escribir en los que recibes",
           "shapes": "comprueba las formas de cada paso", "finite": "revisa cada paso de la cuenta"},
    "en": {"pair": "the result", "advice": "compute in new arrays instead of writing into the ones you receive",
           "shapes": "check the shape after each step", "finite": "go over each step of the computation"},
    "uk": {"pair": "результат", "advice": "обчислюйте в нових масивах, а не пишіть у ті, що отримали",
           "shapes": "перевірте форму після кожного кроку", "finite": "перегляньте кожен крок обчислення"},
}


def language():
    """The language the checkers write in now: the page's when the lesson has that edition, else English."""
    return current_language() if current_language() in LANGUAGES else "en"


class Sentences:
    """One checker's own sentences in each language, {language: {key: sentence}}, filled when it runs."""

    def __init__(self, table):
        """`table` has the same keys in every language."""
        self.table = table

    def say(self, key, *values, **named):
        """The sentence `key` in the page's language, filled with `values` (already written as text)."""
        return self.table[language()][key].format(*values, **named)


SENTENCES = Sentences({
    "es": {
        "raised": "Con {} tu función lanzó {}: {}; lee el mensaje y pruébala en una celda con esos datos.",
        "modified": "Con {} tu función modificó el array que recibe, que debía quedar intacto; calcula en un array "
                    "nuevo (s / T, no s /= T).",
        "whole_float": "Con {} se esperaba un número entero (int), pero tu función devolvió {} como float; un float "
                       "sale de una división con /, de un número escrito con punto (2.0, 1e9) o de math.pow: "
                       "cuenta sólo con enteros, o devuelve int(...).",
        "not_int": "Con {} se esperaba un número entero (int), pero tu función devolvió {}.",
    },
    "en": {
        "raised": "For {}, your function raised {}: {}; read the message and try the function in a cell with those "
                  "inputs.",
        "modified": "For {}, your function changed the array it received, which should stay as it was; compute in a "
                    "new array (s / T, not s /= T).",
        "whole_float": "For {}, a whole number (int) was expected, but your function returned {} as a float; a "
                       "float comes from a division with /, a number written with a point (2.0, 1e9) or math.pow: "
                       "count with whole numbers only, or return int(...).",
        "not_int": "For {}, a whole number (int) was expected, but your function returned {}.",
    },
    "uk": {
        "raised": "Для {} ваша функція викинула {}: {}; прочитайте повідомлення й випробуйте функцію в комірці на "
                  "цих даних.",
        "modified": "Для {} ваша функція змінила масив, який отримала, а він мав лишитися як був; обчислюйте в "
                    "новому масиві (s / T, а не s /= T).",
        "whole_float": "Для {} очікувалося ціле число (int), але ваша функція повернула {} як float; float виникає "
                       "після ділення через /, з числа, записаного з крапкою (2.0, 1e9), або з math.pow: рахуйте "
                       "лише цілими числами або поверніть int(...).",
        "not_int": "Для {} очікувалося ціле число (int), але ваша функція повернула {}.",
    },
})


class Voices:
    """One Phrasebook per language for one exercise; `.now` is the page's."""

    def __init__(self, books):
        """`books`: {language: Phrasebook}."""
        self.books = books

    @property
    def now(self):
        """The Phrasebook of the page's language."""
        return self.books[language()]

    def messages(self):
        """The sentences course.exercise formats itself, per language (its MESSAGES)."""
        return {name: book.messages() for name, book in self.books.items()}

    def verdict(self, problem, case):
        """A case's result: failed with the sentence `problem`, or, where there is none, passed with the page's
        sentence for `case`."""
        if problem:
            return {"ok": False, "message": problem}
        return {"ok": True, "message": self.now.messages()["passed"].format(case=case)}


def phrasebooks(signature, ending):
    """The common phrases in each language, filled with one exercise's signature and how its function ends."""
    return Voices({name: Phrasebook(name, signature=signature[name], pair=WORDS[name]["pair"], ending=ending[name],
                                    advice=WORDS[name]["advice"], shapes=WORDS[name]["shapes"],
                                    finite=WORDS[name]["finite"])
                   for name in LANGUAGES})


def call(function, args, case):
    """Run the learner's function on `args`; (value, None), or (None, sentence) if it raised or changed an input."""
    copies = [np.array(arg, copy=True) if isinstance(arg, np.ndarray) else arg for arg in args]
    try:
        value = function(*args)
    except Exception as error:  # the learner's bug, reported as a sentence
        return None, SENTENCES.say("raised", case, type(error).__name__, error)
    for arg, copy in zip(args, copies):
        if isinstance(arg, np.ndarray) and (arg.shape != copy.shape or not np.array_equal(arg, copy)):
            return None, modified(case)
    return value, None


def modified(case):
    """The sentence for a function that wrote into an array it received."""
    return SENTENCES.say("modified", case)


def integer_problem(value, case, say):
    """A sentence if `value` is not an int (Python's or NumPy's), else None; `say` is the page's Phrasebook."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        if isinstance(value, float) and value == int(value):
            return SENTENCES.say("whole_float", case, number(value))
        return SENTENCES.say("not_int", case,
                             say.describe(value) if not isinstance(value, numbers.Number) else number(value))
    return None


def rebuilt(value, variants):
    """The sentence of the first (result, sentence) pair whose result equals `value`, or None."""
    for result, sentence in variants:
        if np.shape(value) == np.shape(result) and np.allclose(value, result, rtol=1e-9, atol=1e-12):
            return sentence
    return None
