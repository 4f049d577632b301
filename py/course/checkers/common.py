"""What every exercise checker shares, with its sentences in each lesson's language (en, es, uk).

A checker keeps what is its own: its cases, its reference, the mistakes it rebuilds
and the hints that name them. From here it takes running the cases in order,
calling the learner's function (did it raise, did it write into its inputs),
describing a strange return, and checking that an array has the expected shape
and finite float entries. A checker builds one Phrasebook from its language and the
few words that are its own (its function's signature, the pair it returns, its
hints); every sentence stays one sentence: what was expected, what came back, a hint.
Numbers in the sentences are written in the lesson's language (course.numbers.number,
which the runner sets to the page's language): `number(0.25, ".2f")` is '0,25' in es and uk.
"""

import numpy as np

from course.numbers import number

PHRASES = {
    "en": {
        "code_raised": "Your code never gets as far as defining the function: running it raises {error}; fix that line "
                       "and check again.",
        "no_function": "A function called {name} was expected, but your code does not define one; write "
                       "\u201cdef {name}({signature}):\u201d.",
        "checker_failed": "The checker itself failed ({error}); this is not your fault, please tell whoever maintains "
                          "the course.",
        "passed": "Right for {case}.",
        "raised": "For {case} the pair {pair} was expected, but your function raised {kind}: {error}; {hint}",
        "read_the_error": "read the error message and try your function on small arrays in a cell.",
        "modified": "For {case} your function changed {name}, which should stay as it was; do not write into the "
                    "arrays you receive ({advice}).",
        "not_pair": "For {case} the pair {pair} was expected, but your function returned {value}; end it with "
                    "\u201creturn {ending}\u201d.",
        "not_array": "For {case} {name} was expected to be a NumPy array of shape {shape}, but it is {value}; turn it "
                     "into one with np.array(...).",
        "wrong_shape": "For {case} {name} was expected to have shape {shape}, but its shape is {actual}.",
        "not_float": "For {case} {name} was expected to hold real numbers (float), but its type is {dtype}; do not "
                     "round or convert to integers.",
        "not_finite": "For {case} the array {name} holds NaN or infinities; {hint}.",
        "none": "None (is the return missing?)",
        "array": "a single array of shape {shape}",
        "sequence": "a sequence of {count} items",
        "other": "a value of type {type}",
    },
    "es": {
        "code_raised": "Tu código no llega a definir la función: al ejecutarlo salta {error}; corrige esa línea y "
                       "vuelve a comprobar.",
        "no_function": "Se esperaba una función llamada {name}, pero tu código no la define; escribe "
                       "«def {name}({signature}):».",
        "checker_failed": "El corrector falló por su cuenta ({error}); esto no es culpa tuya, avisa a quien mantiene "
                          "el curso.",
        "passed": "Correcto con {case}.",
        "raised": "Con {case} se esperaba la pareja {pair}, pero tu función lanzó {kind}: {error}; {hint}",
        "read_the_error": "lee el mensaje del error y prueba tu función con arrays pequeños en una celda.",
        "modified": "Con {case} tu función modificó {name}, que debía quedar intacta; no escribas dentro de los "
                    "arrays que recibes ({advice}).",
        "not_pair": "Con {case} se esperaba la pareja {pair}, pero tu función devolvió {value}; termina con "
                    "«return {ending}».",
        "not_array": "Con {case} se esperaba que {name} fuera un array de NumPy de forma {shape}, pero es {value}; "
                     "conviértelo con np.array(...).",
        "wrong_shape": "Con {case} se esperaba {name} de forma {shape}, pero tiene forma {actual}.",
        "not_float": "Con {case} se esperaba {name} con números reales (float), pero su tipo es {dtype}; no redondees "
                     "ni conviertas a enteros.",
        "not_finite": "Con {case} el array {name} contiene NaN o infinitos; {hint}.",
        "none": "None (¿falta el return?)",
        "array": "un único array de forma {shape}",
        "sequence": "una secuencia de {count} elementos",
        "other": "un valor de tipo {type}",
    },
    "uk": {
        "code_raised": "Ваш код не доходить до визначення функції: під час виконання виникає {error}; виправте цей "
                       "рядок і перевірте ще раз.",
        "no_function": "Очікувалася функція з назвою {name}, але ваш код її не визначає; напишіть "
                       "«def {name}({signature}):».",
        "checker_failed": "Перевірка сама зламалася ({error}); ваш код тут ні до чого, повідомте тих, хто підтримує "
                          "курс.",
        "passed": "Правильно для {case}.",
        "raised": "Для {case} очікувалася пара {pair}, але ваша функція викинула {kind}: {error}; {hint}",
        "read_the_error": "прочитайте повідомлення про помилку й випробуйте функцію на маленьких масивах у комірці.",
        "modified": "Для {case} ваша функція змінила {name}, а вхідні масиви мають лишатися недоторканими; не пишіть "
                    "у них ({advice}).",
        "not_pair": "Для {case} очікувалася пара {pair}, але ваша функція повернула {value}; закінчіть її рядком "
                    "«return {ending}».",
        "not_array": "Для {case} очікувалося, що {name} буде масивом NumPy форми {shape}, а це {value}; перетворіть "
                     "його через np.array(...).",
        "wrong_shape": "Для {case} {name}: очікувалася форма {shape}, а вийшла форма {actual}.",
        "not_float": "Для {case} {name}: очікувалися дійсні числа (float), а тип — {dtype}; не округлюйте й не "
                     "перетворюйте на цілі.",
        "not_finite": "Для {case} масив {name} містить NaN або нескінченності; {hint}.",
        "none": "None (чи не забули return?)",
        "array": "один масив форми {shape}",
        "sequence": "послідовність довжиною {count}",
        "other": "значення типу {type}",
    },
}
SHAPE_WORDS = ("matmul", "shapes", "aligned")  # in NumPy's messages for arrays whose shapes do not fit


class Phrasebook:
    """One checker's sentences: its language's phrases, filled with the words that are its own."""

    def __init__(self, language, signature, pair="", ending="", advice="", shapes="", finite="", shape_words=SHAPE_WORDS):
        """`pair`/`ending`: what it returns; `advice`: how to leave inputs alone; `shapes`, `finite`: two hints.
        A checker of a function that returns one array (judged by array_problem, not judge) needs none but `finite`."""
        self.phrases = PHRASES[language]
        self.signature = signature
        self.words = {"pair": pair, "ending": ending, "advice": advice}
        self.shapes = shapes
        self.finite = finite
        self.shape_words = shape_words

    def messages(self):
        """The sentences course.exercise formats itself: code that raised, no function, checker bug, a pass."""
        names = ("code_raised", "no_function", "checker_failed", "passed")
        return {name: self.phrases[name].replace("{signature}", self.signature) for name in names}

    def _say(self, phrase, **values):
        """The phrase named `phrase`, filled with `values` (numbers in the lesson's digits) and the checker's own words."""
        values = {name: _written(value) for name, value in values.items()}
        return self.phrases[phrase].format(**dict(self.words, **values))

    def judge(self, function, inputs, case, names, problem_with, extra=(), explain=None):
        """A case's result: the function raised, changed an input, returned no pair, or `problem_with(pair)`.
        `explain(error)`, when given, names the slip behind an exception the learner's function raised (a hint),
        or returns None to leave the general hint."""
        copies = [array.copy() for array in inputs]
        try:
            returned = function(*inputs, *extra)
        except Exception as error:  # the learner's bug, reported as a sentence
            hint = (explain(error) if explain else None) or self._exception_hint(error)
            return fail(self._say("raised", case=case, kind=type(error).__name__, error=error, hint=hint))
        for name, array, copy in zip(names, inputs, copies):
            if array.shape != copy.shape or not np.array_equal(array, copy):
                return fail(self._say("modified", case=case, name=name))
        problem = self._pair_problem(returned, case) or problem_with(returned)
        if problem:
            return fail(problem)
        return {"ok": True, "message": self.phrases["passed"].format(case=case)}

    def _exception_hint(self, error):
        """A hint for an exception the learner's function raised: about shapes when NumPy says so."""
        text = str(error)
        if any(word in text for word in self.shape_words):
            return self.shapes
        return self.phrases["read_the_error"]

    def _pair_problem(self, returned, case):
        """A sentence if `returned` is not a pair, else None."""
        if not isinstance(returned, (tuple, list)) or len(returned) != 2:
            return self._say("not_pair", case=case, value=self.describe(returned))
        return None

    def array_problem(self, name, value, shape, case, allow_nan=False):
        """A sentence if `value` is not a float array of `shape` (with finite entries unless `allow_nan`), else None."""
        if not isinstance(value, np.ndarray):
            return self._say("not_array", case=case, name=name, shape=shape, value=self.describe(value))
        if value.shape != shape:
            return self._say("wrong_shape", case=case, name=name, shape=shape, actual=value.shape)
        if not np.issubdtype(value.dtype, np.floating):
            return self._say("not_float", case=case, name=name, dtype=value.dtype)
        if not allow_nan and not np.all(np.isfinite(value)):
            return self._say("not_finite", case=case, name=name, hint=self.finite)
        return None

    def describe(self, value):
        """What `value` is, in a few words."""
        if value is None:
            return self.phrases["none"]
        if isinstance(value, np.ndarray):
            return self.phrases["array"].format(shape=value.shape)
        if isinstance(value, (tuple, list)):
            return self.phrases["sequence"].format(count=number(len(value)))
        return self.phrases["other"].format(type=type(value).__name__)


def call_on_copies(function, arguments, inputs):
    """Call the learner's function: (returned, None, False), or (None, the exception it raised, False), or
    (returned, None, True) when it wrote into one of the arrays `inputs` (checked against copies taken before)."""
    copies = [array.copy() for array in inputs]
    try:
        returned = function(*arguments)
    except Exception as error:  # the learner's bug, which the checker reports as a sentence
        return None, error, False
    changed = any(array.shape != copy.shape or not np.array_equal(array, copy) for array, copy in zip(inputs, copies))
    return returned, None, changed


def fail(message):
    """A failed result with its sentence."""
    return {"ok": False, "message": message}


def run_cases(function, cases, check_case):
    """One result per case, in order, up to and including the first case that fails."""
    results = []
    for case in cases:
        results.append(check_case(function, *case))
        if not results[-1]["ok"]:
            break
    return results


def shape(value):
    """The shape of `value`, or None when it has none."""
    return getattr(value, "shape", None)


def _written(value):
    """A value to put in a sentence: a number (Python's or NumPy's) in the lesson's digits, anything else as it is."""
    if isinstance(value, (int, float, np.number)) and not isinstance(value, (bool, np.bool_)):
        return number(value.item() if isinstance(value, np.number) else value)
    return value

