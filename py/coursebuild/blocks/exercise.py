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
"""

import html
import re
from dataclasses import dataclass, field

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
    wrong: dict  # file name -> code
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
    """The absolute path an option names, or None after reporting one that leaves the lesson's folder."""
    folder = context.lesson.folder.resolve()
    path = (folder / directive.options[option]).resolve()
    if path != folder and folder not in path.parents:
        context.errors.error(directive.line, ":{}: {} is outside the lesson's folder; keep exercise files inside "
                                             "{}".format(option, directive.options[option], folder.name))
        return None
    return path


def _checker(directive, context):
    """The checker's module, '<package>.checkers.<name>', or None after reporting a name the package lacks."""
    name, lesson = directive.options["checker"], context.lesson
    package = lesson.package_dir
    known = sorted(path.stem for path in (package / "checkers").glob("*.py") if path.stem != "__init__") if package else []
    if name not in known:
        context.errors.error(directive.line, ":checker: {} is not a module of {}/checkers/ (known: {}); write the "
                                             "checker there and name it, such as ':checker: {}'".format(
                                                 name, lesson.package, ", ".join(known) or "none", directive.argument))
        return None
    return "{}.checkers.{}".format(lesson.package, name)


def _read_files(directive, context):
    """({'starter': code, 'solution': code}, {wrong file name: code}), or None after reporting what is missing."""
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
    wrong = {path.name: read_source(path, context.errors) for path in sorted(wrong_dir.glob("*.py"))}
    if not wrong:
        context.errors.error(line, ":wrong: names {}, which holds no known-wrong solutions (*.py); add at least "
                                   "one mistake the checker must reject".format(wrong_dir))
    if None in wrong.values() or not {"starter", "solution"} <= set(codes):
        return None
    return codes, wrong


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
    prompt, hints = _prompt_and_hints(directive, context)
    return Exercise(
        id=directive.argument, line=line, checker=checker, starter=codes["starter"],
        solution=codes["solution"], wrong=wrong, prompt=prompt, hints=hints, solution_path=codes["solution_path"])
