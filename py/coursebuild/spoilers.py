"""Answer first: refuse visible text that gives away what the learner is asked before they act.

Three checks, each reported at the file:line of the text that gives the answer away:

- A cell with `:checks:` keeps its output folded until the quizzes it names are answered. The visible prose
  after it, up to the next heading, may not quote (with {glue}) a value that the cell, or the removed
  bookkeeping cells right after it, glued; nor a value its folded output prints (an array as a run of its
  numbers, a scalar with three decimals or more; whole numbers are left out, as sizes and counts recur).
- The visible prose after a quiz, up to the next heading, may not state its key: the whole text of a right
  option (of two words or more), or a glued number within a numeric quiz's tolerance of its answer.
- A quiz's retry hint (its `hint:`, or its explanation's first sentence) may not hold the key: a right
  option's text, every marked term (emphasis, code) of a right option when those terms point at that
  option alone, the number of a numeric answer, or the word for a true/false answer.

Visible prose is the lesson's paragraphs, lists and tables, exercise prompts and explorable captions; the
bodies of `{answer}`, quiz explanations and hints are folded, so they may say anything.
"""

import math
import re
import unicodedata

from course.numbers import number

from .glue_role import split
from .tokens import children_with_lines

NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")
MARKED = ("em", "strong")


def check(lesson, strings, outputs, glued, glued_by, errors):
    """Report every place where the lesson's visible text or a retry hint states what the learner should find."""
    items = _visible_items(lesson)
    for position, (kind, item) in enumerate(items):
        if kind == "block" and getattr(item, "is_cell", False) and item.checks:
            _check_fold(lesson, items, position, outputs, glued, glued_by, errors)
        elif kind == "block" and getattr(item, "is_quiz", False):
            _check_after_quiz(lesson, items, position, glued, errors)
            _check_hint(lesson, item, strings, glued, errors)


def _visible_items(lesson):
    """The lesson in reading order: ('heading', None), ('block', block) and ('text', inline token) items."""
    items, previous = [], None
    for token in lesson.tokens:
        if token.type == "heading_open":
            items.append(("heading", None))
        elif token.type == "inline" and (previous is None or previous.type != "heading_open"):
            items.append(("text", token))
        elif "block" in token.meta:
            block = token.meta["block"]
            items.append(("block", block))
            shown = getattr(block, "prompt", None) if getattr(block, "is_exercise", False) else (
                getattr(block, "caption", None) if getattr(block, "is_explorable", False) else None)
            if shown is not None:
                items += [("text", each) for each in shown.tokens if each.type == "inline"]
        previous = token
    return items


def _section_after(items, position):
    """The text items after `position` up to the next heading."""
    for kind, item in items[position + 1:]:
        if kind == "heading":
            return
        if kind == "text":
            yield item


def _roles(token):
    """(glue name, spec, line) of every {glue} role in an inline token."""
    for child, line in children_with_lines(token):
        if child.type == "myst_role" and child.meta.get("name") == "glue":
            name, spec = split(child.content)
            yield name, spec, line


def _numbers(value):
    """Every number in a glued value (a number, or nested lists of them); text and booleans hold none."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return []
    if isinstance(value, (int, float)):
        return [value] if math.isfinite(value) else []
    return [each for item in value for each in _numbers(item)]


def _printed(items):
    """(value, decimals) of every number a cell's output items print as text."""
    text = " ".join(item.get("text", "") for item in items if item.get("type") == "stream")
    found = []
    for match in NUMBER.finditer(text):
        literal = match.group()
        mantissa = literal.split("e")[0]
        found.append((float(literal), len(mantissa.split(".")[1]) if "." in mantissa else 0))
    return found


def _is_printed(value, printed):
    """Whether the printout shows a glued value: an array's numbers as a run of printed numbers, or a scalar
    printed with three decimals or more; whole numbers do not count (sizes and counts recur everywhere)."""
    values = _numbers(value)
    if not values or all(float(each).is_integer() for each in values):
        return False
    least = 1 if len(values) > 1 else 3
    for start in range(len(printed) - len(values) + 1):
        run = printed[start:start + len(values)]
        if all(decimals >= least and abs(each - shown) <= 0.5 * 10 ** -decimals + 1e-12
               for each, (shown, decimals) in zip(values, run)):
            return True
    return False


def _check_fold(lesson, items, position, outputs, glued, glued_by, errors):
    """Errors for prose after a folded cell that quotes a value the fold hides."""
    cell = items[position][1]
    hidden = set(glued_by.get(cell.number, ()))
    for kind, follower in items[position + 1:]:  # removed bookkeeping right after the cell glues for it
        if kind != "block" or not getattr(follower, "is_cell", False) or "remove-cell" not in follower.tags:
            break
        hidden.update(glued_by.get(follower.number, ()))
    printed = _printed(outputs.get(cell.number, []))
    quizzes = ", ".join("'{}'".format(name) for name in cell.checks)
    for token in _section_after(items, position):
        for name, _, line in _roles(token):
            if name in hidden:
                how = "glues it"
            elif name in glued and _is_printed(glued[name], printed):
                how = "prints it"
            else:
                continue
            errors.error(line, "{{glue}}`{}` states in view what cell {} folds until quiz {} is answered (the cell "
                               "{}); move the sentence into an {{answer}} or the quiz's explanation, or write it "
                               "without the value".format(name, cell.name, quizzes, how))


def _plain(text):
    """Text compared without case, accents' forms, Markdown marks or punctuation."""
    text = unicodedata.normalize("NFC", text).lower().replace("’", "'")
    return " ".join(re.findall(r"[\w'−-]+", text))


def _token_text(token, glued, language):
    """The words a reader sees in an inline token, glued values written as the page writes them."""
    parts = []
    for child, _ in children_with_lines(token):
        if child.type == "myst_role" and child.meta.get("name") == "glue":
            name, spec = split(child.content)
            if name in glued:
                try:
                    parts.append(number(glued[name], spec, language))
                except (ValueError, TypeError):
                    pass
        elif child.type in ("text", "code_inline", "math_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts)


def _marked(tokens):
    """The terms a text marks: emphasised or strong words and code, compared without case (math is left out:
    symbols such as $h$ recur in every sentence)."""
    terms = set()
    for token in tokens:
        depth = 0
        for child, _ in children_with_lines(token):
            if child.type.endswith("_open") and child.type[:-5] in MARKED:
                depth += 1
            elif child.type.endswith("_close") and child.type[:-6] in MARKED:
                depth -= 1
            elif child.type == "code_inline" or (child.type == "text" and depth > 0):
                terms.add(_plain(child.content))
    terms.discard("")
    return terms


def _inline(body):
    return [token for token in body.tokens if token.type == "inline"]


def _right_texts(quiz, glued, language):
    """The plain text of each right option of a choice quiz, when it has two words or more."""
    texts = [_plain(" ".join(_token_text(token, glued, language) for token in _inline(quiz.options[index])))
             for index in quiz.correct if index < len(quiz.options)]
    return [text for text in texts if len(text.split()) >= 2]


def _near_answer(quiz, values):
    """Whether any of the numbers is the numeric quiz's answer, within its tolerance."""
    if not isinstance(quiz.answer, (int, float)) or isinstance(quiz.answer, bool):
        return False
    margin = max(quiz.tolerance or 0, 1e-9 * max(1.0, abs(quiz.answer)))
    return any(abs(value - quiz.answer) <= margin for value in values)


def _check_after_quiz(lesson, items, position, glued, errors):
    """Errors for visible prose after a quiz, before the next heading, that states its key."""
    quiz = items[position][1]
    rights = _right_texts(quiz, glued, lesson.language) if quiz.kind in ("single", "multiple") else []
    for token in _section_after(items, position):
        text = " {} ".format(_plain(_token_text(token, glued, lesson.language)))
        for right in rights:
            if " {} ".format(right) in text:
                errors.error(token.map[0] + 1, "this text states the right answer of quiz {} ('{}') where the "
                                               "learner reads it before answering; rewrite it without the "
                                               "answer, or move it into the quiz's explanation".format(
                                                   quiz.number, right))
        if quiz.kind == "numeric":
            for name, _, line in _roles(token):
                if name in glued and _near_answer(quiz, _numbers(glued[name])):
                    errors.error(line, "{{glue}}`{}` states the answer of quiz {} ({}) where the learner reads it "
                                       "before answering; rewrite the sentence without it, or move it into the "
                                       "quiz's explanation".format(name, quiz.number, quiz.answer))


def _check_hint(lesson, quiz, strings, glued, errors):
    """An error for a retry hint that holds the quiz's key."""
    if quiz.hint is None:
        return
    tokens = _inline(quiz.hint)
    line = tokens[0].map[0] + 1 if tokens and tokens[0].map else None
    text = " {} ".format(_plain(" ".join(_token_text(token, glued, lesson.language) for token in tokens)))
    problem = None
    if quiz.kind in ("single", "multiple"):
        problem = next(("the text of a right option ('{}')".format(right)
                        for right in _right_texts(quiz, glued, lesson.language) if " {} ".format(right) in text), None)
        if problem is None:
            problem = _marked_key(quiz, tokens, text)
    elif quiz.kind == "numeric":
        values = [value for token in tokens for name, _, _ in _roles(token) for value in _numbers(glued.get(name))]
        values += [float(literal.replace(",", ".")) for literal in re.findall(r"-?\d+(?:[.,]\d+)?", text)]
        if _near_answer(quiz, values):
            problem = "the answer, {}".format(quiz.answer)
    elif quiz.kind == "truefalse" and isinstance(quiz.answer, bool):
        word = _plain(strings["quiz_true" if quiz.answer else "quiz_false"])
        if " {} ".format(word) in text:
            problem = "the word '{}'".format(word)
    if problem is not None:
        errors.error(line, "quiz {}'s retry hint (what a wrong answer shows first: its 'hint:', or else its "
                           "explanation's first sentence) holds its key, {}; write a 'hint:' that points at the "
                           "reasoning instead".format(quiz.number, problem))


def _marked_key(quiz, hint_tokens, hint_text):
    """What a hint gives away when it names every marked term of a right option that the question does not name,
    and those terms are no wrong option's: the terms that point at that option alone."""
    marked = _marked(hint_tokens)
    asked = _marked(_inline(quiz.question))  # a term the question itself names points at no option
    asked |= set(_plain(" ".join(_token_text(token, {}, "en") for token in _inline(quiz.question))).split())
    others = [_marked(_inline(option)) - asked for index, option in enumerate(quiz.options) if index not in quiz.correct]
    for index in quiz.correct:
        own = _marked(_inline(quiz.options[index])) - asked
        named = all(term in marked or " {} ".format(term) in hint_text for term in own)
        if own and named and all(own != other for other in others):
            return "every term the right option {} marks ({})".format(index + 1, ", ".join(sorted(own)))
    return None
