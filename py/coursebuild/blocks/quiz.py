"""A quiz question, checked in the page without Python.

    ```{quiz} single            (single, multiple, numeric or truefalse)
    question: Una capa tiene una cabeza con $d_k = 4$...
    options:
      - text: Se diferencian en ...
        correct: true
      - text: ...
    explanation: Porque ...
    ```

`:id: name` (an option line before the YAML) gives the quiz a stable key for the
learner's saved answer (else a hash of the quiz's text is the key).
numeric takes `answer:` and `tolerance:`; truefalse takes `answer: true|false`.
`hint:` is what a wrong answer shows first; without it, the page shows the explanation's first
sentence, and the whole explanation only with a right answer or on request. Every quiz needs a hint:
the build warns (file:line) about one whose explanation is a single sentence and that has no `hint:`.
Texts are Markdown with math.

Each option of a choice question has a stable id (`option_ids`), which the page saves instead of a position: the
page shows the options in an order drawn per learner (site/page/shuffle.js), so a position means nothing, and a
course update that reorders the options keeps every saved answer. The build warns (file:line) when more than half
of a lesson's choice keys come first in source order, which a printed page or a page without JavaScript still
shows, and reports each lesson's true/false balance (`check_keys_by_position`).
"""

import hashlib
import html
import math
import sys
import unicodedata
from dataclasses import dataclass, field

import yaml

from course.numbers import number

from .. import yaml_text
from ..errors import closest
from .base import anchor_attribute, block_key, check_options, render_inline

KINDS = ("single", "multiple", "numeric", "truefalse")
KEYS = {  # the keys each kind of question takes
    "single": ("explanation", "hint", "options", "question"),
    "multiple": ("explanation", "hint", "options", "question"),
    "numeric": ("answer", "explanation", "hint", "question", "tolerance"),
    "truefalse": ("answer", "explanation", "hint", "question"),
}
OPTION_KEYS = ("correct", "text")


@dataclass
class Quiz:
    """One question: its kind, its texts as parsed Markdown and its key."""

    number: int
    kind: str
    question: object
    explanation: object
    options: list = field(default_factory=list)
    correct: list = field(default_factory=list)
    answer: object = None
    tolerance: float = 0
    key: str = ""
    hint: object = None
    option_ids: list = field(default_factory=list)  # one per option, in source order (see option_ids)
    line: int = 0
    is_quiz = True

    def data(self):
        """The key the page checks answers against: option ids (in source order) and the ids of the right ones."""
        data = {"id": self.number, "key": self.key, "kind": self.kind}
        if self.kind in ("single", "multiple"):
            data["correct"] = [self.option_ids[index] for index in self.correct]
            data["options"] = list(self.option_ids)
        else:
            data["answer"] = self.answer
        if self.kind == "numeric":
            data["tolerance"] = self.tolerance
        return data

    def shape(self):
        """What the index checks an imported answer against: the kind and the option ids, never the key."""
        return {"kind": self.kind, "options": list(self.option_ids)}

    def resolve(self, lesson, errors):
        """Once the lesson is parsed, its first quiz checks the keys of them all for position (a lesson-wide check
        that needs no hook of its own)."""
        if next(block for block in lesson.blocks if getattr(block, "is_quiz", False)) is self:
            check_keys_by_position(lesson)

    def render(self, context):
        """An accessible form: a fieldset with a legend, labelled inputs and a live feedback region."""
        strings = context.strings
        name = "quiz-{}".format(self.number)
        notes = []
        if self.kind == "multiple":
            notes.append(strings["quiz_all_or_nothing"])
        if self.kind == "numeric" and self.tolerance == 0:
            notes.append(strings["quiz_exact"])
        elif self.kind == "numeric":
            notes.append(strings["quiz_tolerance"].format(tolerance=number(self.tolerance, "", context.lesson.language)))
        if self.kind == "numeric":
            inputs = ('<label class="quiz-number">{label} <input type="text" inputmode="decimal" autocomplete="off" '
                      'name="{name}"></label>').format(label=html.escape(strings["quiz_number_label"]), name=name)
        else:
            kind = "checkbox" if self.kind == "multiple" else "radio"
            choices = [render_inline(context, option) for option in self.options] if self.kind != "truefalse" else [
                html.escape(strings["quiz_true"]), html.escape(strings["quiz_false"])]
            # The options in source order: a reader without JavaScript (or a printer of the bare page) sees them
            # so; the page reorders them per learner. The value is the option's id, which the page saves.
            values = ["true", "false"] if self.kind == "truefalse" else list(self.option_ids)
            inputs = "".join('<label class="quiz-option"><input type="{kind}" name="{name}" value="{value}"> '
                             '<span data-content>{text}</span></label>'.format(kind=kind, name=name, value=value, text=text)
                             for value, text in zip(values, choices))
        return (
            '<form class="quiz" id="quiz-{n}" data-kind="{kind}" novalidate>\n'
            '<fieldset><legend data-content><span class="quiz-number-label"{anchor}>{label}</span> {question}</legend>\n'
            '{notes}<div class="quiz-inputs">{inputs}</div></fieldset>\n'
            '<div class="quiz-actions" hidden><button type="submit" class="button">{check}</button>'
            '<button type="button" class="button" data-action="retry">{retry}</button></div>\n'
            '<div class="quiz-feedback" role="status" aria-live="polite" hidden><p class="quiz-verdict"></p>'
            '<div class="quiz-hint" data-content hidden>{hint}</div>'
            '<p class="quiz-explain" hidden><button type="button" class="button" data-action="explain">{explain}'
            '</button></p>'
            '<div class="quiz-explanation" data-content hidden>{explanation}</div></div>\n'
            "</form>\n"
        ).format(n=self.number, kind=self.kind, anchor=anchor_attribute("quiz", self.key),
                 hint=context.render_body(self.hint) if self.hint is not None else "",
                 explain=html.escape(strings["quiz_explain"]),
                 label=html.escape(strings["quiz_question"].format(n=self.number)),
                 question=render_inline(context, self.question), inputs=inputs, check=html.escape(strings["quiz_check"]),
                 retry=html.escape(strings["quiz_retry"]), explanation=context.render_body(self.explanation),
                 notes="".join('<p class="quiz-note" data-content>{}</p>'.format(html.escape(note)) for note in notes))


def parse(directive, context):
    """Validate the question's YAML and parse its texts, each at its own line."""
    check_options(directive, context, ("id",))
    line = directive.line
    kind = directive.argument
    if kind not in KINDS:
        context.errors.error(line, "unknown quiz kind '{}' (known: {}); write ```{{quiz}} single".format(
            kind, ", ".join(KINDS)))
        return None
    try:
        spec = yaml_text.load(directive.body) or {}
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        context.errors.error(directive.body_line + (mark.line if mark else 0),
                             "the quiz is not valid YAML ({})".format(getattr(error, "problem", error)))
        return None
    if not isinstance(spec, dict):
        context.errors.error(line, "a quiz is YAML with question:, explanation: and its answer")
        return None
    lines = _yaml_lines(directive.body, directive.body_line)
    meant = _check_keys(spec, lines, kind, context)
    missing = [needed for needed in ("question", "explanation")
               if not isinstance(spec.get(needed), str) or not spec[needed].strip()]
    for needed in missing:
        if needed not in meant:  # a misspelling of it was reported already
            context.errors.error(line, "the quiz lacks '{}:'; add it as text".format(needed))
    if missing:
        return None
    quiz = Quiz(number=context.next_number("quiz"), kind=kind, line=line,
                key=block_key(directive, context, "quiz", kind + "\n" + directive.body),
                question=context.parse_body(spec["question"], lines.get("question", directive.body_line)),
                explanation=context.parse_body(spec["explanation"], lines.get("explanation", directive.body_line)))
    if isinstance(spec.get("hint"), str) and spec["hint"].strip():
        quiz.hint = context.parse_body(spec["hint"], lines.get("hint", directive.body_line))
    elif "hint" in spec:
        context.errors.error(lines.get("hint", line), "'hint:' must be text, the clue a wrong answer shows first")
    elif first_sentence(spec["explanation"]) != spec["explanation"].strip():
        quiz.hint = context.parse_body(first_sentence(spec["explanation"]), lines.get("explanation", directive.body_line))
    else:
        warn(context, line, "the quiz has no hint for a wrong answer (its explanation is one sentence, which a "
                            "retry would not show); add 'hint:', a clue that guides without giving the key")
    if kind in ("single", "multiple"):
        _parse_options(quiz, spec, context, line, lines)
    elif kind == "numeric":
        if not _finite(spec.get("answer")):
            context.errors.error(lines.get("answer", line), "a numeric question needs 'answer:' as a finite number")
        if not _finite(spec.get("tolerance")) or spec["tolerance"] < 0:
            context.errors.error(lines.get("tolerance", line), "a numeric question needs 'tolerance:' (a finite "
                                 "number, 0 or more), the margin the page accepts and shows")
        quiz.answer, quiz.tolerance = spec.get("answer"), spec.get("tolerance", 0)
    else:
        if not isinstance(spec.get("answer"), bool):
            context.errors.error(line, "a true/false question needs 'answer: true' or 'answer: false'")
        quiz.answer = spec.get("answer")
    return quiz


def warn(context, line, message):
    """Print `file:line: warning: message` to stderr: a problem the author should fix that does not stop the build."""
    print("{}:{}: warning: {}".format(context.lesson.path, line, message), file=sys.stderr)


def option_ids(texts):
    """A stable id for each option text, in order: 6 hex digits of the SHA-256 of the text, normalised.

    From the text, not the position: a course update that reorders the options keeps each option's id, so an
    answer saved by id still names the option the learner chose (a position would then name another). The text is
    normalised (Unicode NFC, case folded, runs of white space as one space, trimmed) so that re-wrapping a long
    option in the YAML, or fixing its capitals, keeps its id too; changing its words makes it another option, and
    an answer saved for the old words no longer fits and is set aside, not lost. Six hex digits keep the compact
    SCORM record small; ids need only differ within one question. Two options whose normalised texts are the same
    (or whose digests collide) get the digest and "-2", "-3" ... in source order: the fallback keeps every id
    unique, and stable as long as those duplicates keep their order among themselves.
    """
    ids = []
    for text in texts:
        plain = " ".join(unicodedata.normalize("NFC", text).casefold().split())
        base = hashlib.sha256(plain.encode("utf-8")).hexdigest()[:6]
        made, n = base, 1
        while made in ids:
            n += 1
            made = "{}-{}".format(base, n)
        ids.append(made)
    return ids


def positional_first(quiz):
    """Whether a choice question's key is where a reader guesses first: its first option (single), or its first k
    options and nothing else (multiple, as "the first three")."""
    if quiz.kind == "single":
        return quiz.correct == [0]
    return quiz.kind == "multiple" and bool(quiz.correct) and quiz.correct == list(range(len(quiz.correct))) \
        and len(quiz.correct) < len(quiz.options)


def check_keys_by_position(lesson, out=None):
    """Warn (at the lesson's first positional quiz) when more than half of its choice keys come first in source
    order, and note its true/false balance: a line each in the build log (stderr)."""
    out = out or sys.stderr
    quizzes = [block for block in lesson.blocks if getattr(block, "is_quiz", False)]
    choices = [quiz for quiz in quizzes if quiz.kind in ("single", "multiple") and quiz.correct]
    first = [quiz for quiz in choices if positional_first(quiz)]
    if choices and 2 * len(first) > len(choices):
        print("{}:{}: warning: the key of {} of the lesson's {} choice quizzes is its first option(s) in source "
              "order (quizzes {}); the page shuffles them, but a printed page or one without JavaScript shows "
              "source order, where the key can be guessed: put some keys elsewhere".format(
                  lesson.path, first[0].line, len(first), len(choices),
                  ", ".join("{} (line {})".format(quiz.number, quiz.line) for quiz in first)), file=out)
    answers = [quiz.answer for quiz in quizzes if quiz.kind == "truefalse" and isinstance(quiz.answer, bool)]
    if answers:
        print("{}: note: true/false balance: {} true, {} false (of {} true/false quizzes)".format(
            lesson.path, answers.count(True), answers.count(False), len(answers)), file=out)


def first_sentence(text):
    """The text up to its first full stop, question or exclamation mark followed by a space, outside math."""
    text = text.strip()
    in_math = False
    for index, char in enumerate(text):
        if char == "$":
            in_math = not in_math
        elif not in_math and char in ".?!" and (index + 1 == len(text) or text[index + 1].isspace()):
            return text[:index + 1]
    return text


def _finite(value):
    """True for a number a page can hold: not a bool, not infinite, not NaN."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check_keys(spec, lines, kind, context):
    """Report keys the question's kind does not take (a misspelled key would change the quiz silently).

    Returns the known keys that the unknown ones most likely meant.
    """
    meant = set()
    for key in spec:
        if key not in KEYS[kind]:
            meant.add(closest(key, KEYS[kind]))
            context.errors.error(lines.get(("key", str(key)), lines["first"]), "a {} question has no key '{}:'{} (known: {})".format(
                kind, key, _suggestion(key, KEYS[kind]), ", ".join(KEYS[kind])))
    options = spec.get("options") if isinstance(spec.get("options"), list) else []
    for index, option in enumerate(options if "options" in KEYS[kind] else []):
        for key in option if isinstance(option, dict) else ():
            if key not in OPTION_KEYS:
                context.errors.error(lines.get(("options", index, str(key)), lines["first"]), "option {} has no key '{}:'{} (known: "
                                     "{})".format(index + 1, key, _suggestion(key, OPTION_KEYS), ", ".join(OPTION_KEYS)))
    for key, line in lines.get("duplicates", []):
        context.errors.error(line, "the key '{}:' is written twice; keep one".format(key))
    return meant


def _suggestion(key, known):
    """'; did you mean 'explanation:'?' for a key close to a known one, or nothing."""
    close = closest(key, known)
    return "; did you mean '{}:'?".format(close) if close else ""


def _parse_options(quiz, spec, context, line, lines):
    """Parse the options of a single or multiple choice question and its key."""
    options = spec.get("options")
    if not isinstance(options, list) or len(options) < 2:
        context.errors.error(line, "a {} question needs 'options:' with at least two entries".format(quiz.kind))
        return
    for index, option in enumerate(options):
        if not isinstance(option, dict) or not isinstance(option.get("text"), str):
            context.errors.error(line, "option {} needs 'text:'".format(index + 1))
            continue
        quiz.options.append(context.parse_body(option["text"], lines.get(("options", index), line)))
        if not isinstance(option.get("correct", False), bool):
            context.errors.error(lines.get(("options", index, "correct"), line),
                                 "'correct:' of option {} must be true or false".format(index + 1))
        if option.get("correct") is True:
            quiz.correct.append(len(quiz.options) - 1)
    quiz.option_ids = option_ids([option["text"] for option in options
                                  if isinstance(option, dict) and isinstance(option.get("text"), str)])
    if not quiz.correct:
        context.errors.error(line, "no option is marked 'correct: true'; mark the right one")
    elif quiz.kind == "single" and len(quiz.correct) > 1:
        context.errors.error(line, "a single-choice question has {} correct options; use 'multiple' or mark "
                                   "one".format(len(quiz.correct)))


def _yaml_lines(text, first_line):
    """File lines in the quiz's YAML: of each text ('question', ('options', i)), key (('key', k)), option key."""
    lines = {"duplicates": [], "first": first_line}
    root = yaml.compose(text)
    for key, value in _pairs(root):
        _note_key(lines, ("key", key.value), first_line + key.start_mark.line)
        lines[key.value] = first_line + _start(value)
        if key.value == "options" and isinstance(value, yaml.SequenceNode):
            for index, item in enumerate(value.value):
                for option_key, option_value in _pairs(item):
                    _note_key(lines, ("options", index, option_key.value), first_line + option_key.start_mark.line)
                    if option_key.value == "text":
                        lines[("options", index)] = first_line + _start(option_value)
    return lines


def _note_key(lines, where, line):
    """Record where a key is written, and a second writing of it as a duplicate."""
    if where in lines:
        lines["duplicates"].append((where[-1], line))
    lines[where] = line


def _pairs(node):
    """The (key, value) nodes of a YAML mapping node; none for anything else."""
    return node.value if isinstance(node, yaml.MappingNode) else []


def _start(node):
    """0-based line of a YAML value's text: a block scalar (| or >) starts on the line after its indicator."""
    return node.start_mark.line + (1 if getattr(node, "style", None) in ("|", ">") else 0)


