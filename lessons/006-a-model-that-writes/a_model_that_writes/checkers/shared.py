"""What this lesson's two checkers share: calling the learner's function on one array-valued case.

common.Phrasebook judges functions that return a pair; these two return one array, so the call,
the check that inputs stay untouched and the shape check are done here, with the Phrasebook's
sentences where they fit and the lesson's own where they do not.
"""

from course.checkers.common import Phrasebook, call_on_copies
from course.numbers import current_language

OWN = {
    "en": {
        "raised": "For {case} your function raised {kind}: {error}; {hint}",
        "modified": "For {case} your function changed its input, which should stay as it was; compute into a new "
                    "array (logits - m rather than logits -= m).",
    },
    "es": {
        "raised": "Con {case} tu función lanzó {kind}: {error}; {hint}",
        "modified": "Con {case} tu función modificó su entrada, que debía quedar intacta; calcula en un array nuevo "
                    "(logits - m en vez de logits -= m).",
    },
    "uk": {
        "raised": "Для {case} ваша функція викинула {kind}: {error}; {hint}",
        "modified": "Для {case} ваша функція змінила свій вхід, а він має лишатися недоторканим; обчислюйте в новий "
                    "масив (logits - m, а не logits -= m).",
    },
}


def phrasebook(signature, ending, shapes, finite):
    """The common Phrasebook of the page's language, with this checker's words."""
    return Phrasebook(current_language(), signature=signature, pair="", ending=ending,
                      advice="logits - m rather than logits -= m", shapes=shapes, finite=finite)


def messages(signature, ending, shapes, finite):
    """The sentences course.exercise formats, per language."""
    return {language: Phrasebook(language, signature=signature, pair="", ending=ending, advice="", shapes=shapes,
                                 finite=finite).messages() for language in OWN}


def own(name, **values):
    """One of the sentences above, in the page's language."""
    return OWN[current_language()][name].format(**values)


def call(function, arguments, inputs, case, raised_hint):
    """(returned, None) or (None, sentence): the call raised, or it wrote into one of `inputs`."""
    returned, error, changed = call_on_copies(function, arguments, inputs)
    if error is not None:
        return None, own("raised", case=case, kind=type(error).__name__, error=error, hint=raised_hint(error))
    if changed:
        return None, own("modified", case=case)
    return returned, None


def passed(case):
    """A passed result, in the page's language."""
    return {"ok": True, "message": Phrasebook(current_language(), "", "", "", "", "", "").phrases["passed"].format(
        case=case)}
