"""A coding exercise with an automatic checker.

    ::::{exercise} multi_head
    :checker: multi_head
    :starter: exercises/multi_head/starter.py
    :solution: exercises/multi_head/solution.py
    :wrong: exercises/multi_head/wrong

    The prompt, in Markdown.

    :::{hint}
    A hint, revealed on request.
    :::
    ::::

`:checker:` names a module of the lesson package's checkers/ (here
<package>/checkers/multi_head.py). Paths are relative to the lesson's folder. The build runs the checker on the
reference solution (it must pass) and on every file in the `wrong` folder (each
must fail), so a checker that lets a known mistake through cannot ship.

One set of known-wrong solutions serves every edition: an edition's `:wrong:` names the primary's
folder (`exercises/<id>/wrong`). Where the checker asks each language for its own name (FUNCTION =
{"es": "atencion_causal", "en": "causal_attention"}), a file that defines another edition's name and not
this edition's is graded with that name renamed to this edition's (see as_graded). Known-wrong solutions
only prove the checker: they are never part of the page (Exercise.data and render leave them out), so
their comments and local names stay in the language they were written in.
"""

import ast
import html
import io
import os
import re
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from .. import highlight
from ..errors import read_source
from .base import check_options
from .directive import read_directive

OPTIONS = ("checker", "starter", "solution", "wrong")
ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass
class Exercise:
    """An exercise: its id, checker, code files, and its prompt and hints as parsed Markdown."""

    id: str
    line: int
    checker: str
    starter: str
    solution: str
    wrong: dict  # file name -> code, as this edition's checker grades it (as_graded)
    prompt: object
    hints: list = field(default_factory=list)
    function: str = ""  # the name the learner defines, in the page's language: the checker says it at build time
    solution_path: object = None  # the reference solution's file, where the build reports it failing
    is_exercise = True

    def data(self):
        """What the page needs: the starter code and the checker to run in the worker."""
        return {"id": self.id, "key": self.id, "checker": self.checker, "starter": self.starter, "hints": len(self.hints)}

    def render(self, context):
        """The exercise: prompt, editor, controls, hints, results and the hidden solution."""
        strings = context.strings
        hints = "".join('<li tabindex="-1" data-content hidden>{}</li>'.format(context.render_body(hint)) for hint in self.hints)
        return (
            '<section class="exercise" id="exercise-{id}" aria-labelledby="exercise-{id}-title">\n'
            '<h2 id="exercise-{id}-title">{title}: <code>{name}</code></h2>\n'
            '<div class="exercise-prompt" data-content>{prompt}</div>\n'
            '<p class="exercise-keyboard-note">{keyboard}</p>\n'
            '<div class="cell-code" data-content tabindex="0" role="textbox" aria-readonly="true" aria-label="{code_label}">'
            '<pre class="code highlight"><code>{starter}</code></pre></div>\n'
            '<div class="exercise-actions" hidden>'
            '<button type="button" class="button run" data-action="check">{check}</button>'
            '<button type="button" class="button" data-action="hint"></button>'
            '<button type="button" class="button" data-action="solution" disabled>{show_solution}</button>'
            '<button type="button" class="button" data-action="reset-exercise" hidden>{reset}</button>'
            '<span class="attempts"></span><span class="exercise-status" role="status"></span></div>\n'
            '<div class="solution-confirm" role="group" hidden><p>{confirm}</p>'
            '<button type="button" class="button" data-action="confirm-solution">{yes}</button>'
            '<button type="button" class="button" data-action="cancel-solution">{cancel}</button></div>\n'
            '<ol class="hints" aria-label="{hints_label}">{hints}</ol>\n'
            '<ul class="check-results" data-content aria-live="polite" aria-label="{results_label}"></ul>\n'
            '<div class="cell-output" data-content aria-live="polite"></div>\n'
            '<div class="solution" data-content tabindex="-1" hidden><h3>{solution_title}</h3>'
            '<pre class="code highlight"><code>{solution}</code></pre></div>\n'
            "</section>\n"
        ).format(
            id=html.escape(self.id), name=html.escape(self.function or self.id),
            title=html.escape(strings["exercise_title"]), prompt=context.render_body(self.prompt),
            keyboard=html.escape(strings["exercise_keyboard"]),
            code_label=html.escape(strings["exercise_code_label"]), starter=highlight.highlight(self.starter),
            check=html.escape(strings["check"]), show_solution=html.escape(strings["show_solution"]),
            reset=html.escape(strings["reset"]), confirm=html.escape(strings["confirm_solution"]),
            yes=html.escape(strings["confirm_yes"]), cancel=html.escape(strings["cancel"]),
            hints_label=html.escape(strings["hints_label"]), hints=hints,
            results_label=html.escape(strings["results_label"]),
            solution_title=html.escape(strings["solution_title"]), solution=highlight.highlight(self.solution),
        )


def _prompt_and_hints(directive, context):
    """The prompt and each `:::{hint}` inside the body, parsed as the directives they are."""
    lines = directive.body.splitlines(True)
    hints = []
    for token in context.markdown.parse(directive.body):
        if token.type != "colon_fence" or token.map is None or token.info.strip().split(" ")[0] != "{hint}":
            continue
        start, end = token.map
        token.map = [start + directive.body_line - 1, end + directive.body_line - 1]
        hint = read_directive(token, context.errors)
        check_options(hint, context, ())
        if hint.argument:
            context.errors.error(hint.line, "a hint has no title ('{}'); the page numbers hints itself, so write it "
                                            "as the hint's first words".format(hint.argument))
        if not hint.body.strip():
            context.errors.error(hint.line, "this hint is empty; write what it says or remove it")
        hints.append(context.parse_body(hint.body, hint.body_line))
        # The prompt keeps a blank line for each of the hint's, so its lines keep their numbers in the file.
        lines[start:end] = ["\n"] * (end - start)
    return context.parse_body("".join(lines), directive.body_line), hints


def _inside_lesson(directive, option, context):
    """The absolute path an option names, or None after reporting one that leaves the lesson's folder. The path is
    judged as written, so a file linked into the folder (a test fixture borrowing a lesson's exercise) is read where
    the link points."""
    folder = context.lesson.folder.resolve()
    path = Path(os.path.normpath(folder / directive.options[option]))
    if path != folder and folder not in path.parents:
        context.errors.error(directive.line, ":{}: {} is outside the lesson's folder; keep exercise files inside "
                                             "{}".format(option, directive.options[option], folder.name))
        return None
    return path


def _checker(directive, context):
    """(the checker's module, '<package>.checkers.<name>', and its file), or None after reporting a name the package
    lacks."""
    name, lesson = directive.options["checker"], context.lesson
    package = lesson.package_dir
    known = sorted(path.stem for path in (package / "checkers").glob("*.py") if path.stem != "__init__") if package else []
    if name not in known:
        context.errors.error(directive.line, ":checker: {} is not a module of {}/checkers/ (known: {}); write the "
                                             "checker there and name it, such as ':checker: {}'".format(
                                                 name, lesson.package, ", ".join(known) or "none", directive.argument))
        return None
    return "{}.checkers.{}".format(lesson.package, name), package / "checkers" / (name + ".py")


def _read_files(directive, context):
    """({'starter': code, 'solution': code}, {wrong file's path: code}), or None after reporting what is missing."""
    line = directive.line
    codes = {}
    for option in ("starter", "solution"):
        path = _inside_lesson(directive, option, context)
        if path is not None and not path.is_file():
            context.errors.error(line, ":{}: names {}, which does not exist".format(option, path))
        elif path is not None:
            code = read_source(path, context.errors)
            if code is not None:
                codes[option] = code
                codes[option + "_path"] = path
    wrong_dir = _inside_lesson(directive, "wrong", context)
    if wrong_dir is None:
        return None
    if not wrong_dir.is_dir():
        context.errors.error(_option_line(directive, "wrong"), ":wrong: names {}, which does not exist; name the folder "
                             "that holds the known-wrong solutions (an edition names lesson.md's: ':wrong: "
                             "exercises/{}/wrong')".format(directive.options["wrong"], directive.argument))
        return None
    wrong = {path: read_source(path, context.errors) for path in sorted(wrong_dir.glob("*.py"))}
    if not wrong:
        context.errors.error(line, ":wrong: names {}, which holds no known-wrong solutions (*.py); add at least "
                                   "one mistake the checker must reject".format(wrong_dir))
    if None in wrong.values() or not {"starter", "solution"} <= set(codes):
        return None
    return codes, wrong


def _option_line(directive, option):
    """The 1-based line of the directive's `:option:`, or the directive's own line where it cannot be told."""
    content = directive.token.content.splitlines() if directive.token is not None else []
    found = next((index for index, text in enumerate(content) if text.startswith(":{}:".format(option))), None)
    return directive.line if found is None else directive.line + 1 + found


def _graded_codes(wrong, checker_path, context):
    """{file name: code} of the known-wrong solutions as this page's checker grades them (as_graded); None after
    reporting a checker whose names cannot be read or a file that cannot be renamed."""
    plain = {path.name: code for path, code in wrong.items()}
    if context.lesson.edition is None:  # lesson.md's own files: they define the name lesson.md asks for
        return plain
    names = _function_table(checker_path, context)
    if names is None or isinstance(names, str):  # unreadable (reported), or one name in every language
        return None if names is None else plain
    language = context.lesson.language
    if language not in names:
        context.errors.error_in(checker_path, names.line, "FUNCTION names no function for '{}', the language of {}; "
                                "add '\"{}\": <name>'".format(language, context.lesson.path.name, language))
        return None
    graded = {}
    for path, code in wrong.items():
        try:
            graded[path.name] = as_graded(code, names[language], set(names.values()))
        except NameClash as clash:
            context.errors.error_in(path, clash.line, str(clash))
    return graded if len(graded) == len(wrong) else None


class FunctionTable(dict):
    """A checker's FUNCTION per language, {language: name}, with the line of the checker file that writes it."""

    line = None


def _function_table(checker_path, context):
    """The checker's FUNCTION as its file writes it: one name (str) or a FunctionTable; None after reporting one that
    is not written out. The build reads it from the file because it never imports a lesson's code itself (the
    runner's child does); course.exercise.function_name reads the same value in the child."""
    source = read_source(checker_path, context.errors)
    try:
        tree = ast.parse(source or "")
    except SyntaxError:
        return None  # the checker cannot be imported either: grading it reports that, once
    assigned = [node for node in tree.body if isinstance(node, ast.Assign)
                and any(isinstance(target, ast.Name) and target.id == "FUNCTION" for target in node.targets)]
    try:
        value = ast.literal_eval(assigned[-1].value) if assigned else None
    except (ValueError, TypeError, SyntaxError):  # not a literal: a name, a call, a comprehension...
        value = None
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and value and all(isinstance(item, str) for pair in value.items() for item in pair):
        table = FunctionTable(value)
        table.line = assigned[-1].lineno
        return table
    context.errors.error_in(checker_path, assigned[-1].lineno if assigned else None,
                            "FUNCTION must be written out, as one name (FUNCTION = \"multi_head\") or one per language "
                            "(FUNCTION = {\"es\": \"atencion_causal\", \"en\": \"causal_attention\"}): the build reads it "
                            "to give an edition's known-wrong solutions the edition's name")
    return None


class NameClash(ValueError):
    """A known-wrong solution whose function cannot take the edition's name, at `line` of the file."""

    def __init__(self, line, message):
        super().__init__(message)
        self.line = line


def as_graded(code, wanted, names):
    """`code` as a checker that asks for `wanted` grades it: where the code defines at top level none of `wanted` but
    one other of the checker's `names` (the name the primary's edition asks for), that name renamed to `wanted`;
    otherwise unchanged (a mistake may be the name itself). Its helpers keep their names."""
    defined = _top_level_names(code)
    if defined is None or wanted in defined:
        return code
    others = sorted(defined & (set(names) - {wanted}))
    if len(others) > 1:
        raise NameClash(None, "this known-wrong solution defines {}, the names of several editions; define the "
                              "function once, under the primary's name".format(" and ".join(others)))
    return renamed(code, others[0], wanted) if others else code


def _top_level_names(code):
    """The names the code's top level defines (functions, classes, plain assignments), or None if it does not
    parse (a known-wrong solution may be that mistake)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    names = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    targets = [target for node in tree.body if isinstance(node, ast.Assign) for target in node.targets]
    return names | {target.id for target in targets if isinstance(target, ast.Name)}


def renamed(code, old, new):
    """`code` with every Python name `old` written `new`, token by token: attributes (`x.old`), strings and comments
    keep theirs, and every other character and line stays where it was, so errors keep their line numbers.
    NameClash where the code already uses `new`."""
    lines = io.StringIO(code).readlines()
    places, previous = [], None
    for token in tokenize.generate_tokens(iter(lines).__next__):
        if token.type == tokenize.NAME and token.string == new:
            raise NameClash(token.start[0], "this known-wrong solution already uses the name {}, which its function "
                                            "{} is renamed to for this edition; rename that one".format(new, old))
        if token.type == tokenize.NAME and token.string == old and (previous is None or previous.string != "."):
            places.append(token.start)
        if token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
            previous = token
    for row, column in reversed(places):
        lines[row - 1] = lines[row - 1][:column] + new + lines[row - 1][column + len(old):]
    return "".join(lines)


def parse(directive, context):
    """Read the exercise's files and parse its prompt and hints."""
    check_options(directive, context, OPTIONS)
    line = directive.line
    if not ID.match(directive.argument):
        context.errors.error(line, "an exercise needs an id that is a Python name: ::::{exercise} multi_head")
        return None
    earlier = context.claim("exercise", directive.argument, line)
    if earlier is not None:
        context.errors.error(line, "the exercise id '{}' is already used at line {}; give each exercise its own "
                                   "id".format(directive.argument, earlier))
        return None
    for option in OPTIONS:
        if not isinstance(directive.options.get(option), str):
            context.errors.error(line, "the exercise lacks ':{}:'".format(option))
    if any(not isinstance(directive.options.get(option), str) for option in OPTIONS):
        return None
    checker = _checker(directive, context)
    files = _read_files(directive, context)
    if files is None or checker is None:
        return None
    codes, wrong = files
    wrong = _graded_codes(wrong, checker[1], context)
    if wrong is None:
        return None
    prompt, hints = _prompt_and_hints(directive, context)
    return Exercise(
        id=directive.argument, line=line, checker=checker[0], starter=codes["starter"],
        solution=codes["solution"], wrong=wrong, prompt=prompt, hints=hints, solution_path=codes["solution_path"])
