"""A runnable Python cell, in jupytext's MyST notebook form.

    ```{code-cell} ipython3
    :tags: [raises-exception]
    1 / 0
    ```

`:id: name` gives the cell a stable key for the learner's saved edits (else a
hash of its code is the key, so an edit to the code starts the cell afresh).

Tags: `raises-exception` marks a cell that is meant to raise (lessons teach
errors); the build then fails if it does *not* raise. MyST-NB's display tags
(`remove-input`, `remove-output`, `remove-cell`, `hide-input`, `hide-output`)
say what of the cell the reader sees; a removed cell still runs in page order.
`skip-run-all` leaves a long cell out of the page's «run all»: the build runs it,
and in the browser only its own Run does.

`:checks: [quiz-id, ...]` names the quizzes whose answers the cell's output
gives away: the page keeps that output folded (a <details>, so it opens without
JavaScript) until the learner answers all of them right, runs the cell, or asks
to see it (site/page/answer-fold.js).
"""

import html
from dataclasses import dataclass

from .. import highlight
from ..errors import closest
from ..outputs import render_output
from .base import anchor_attribute, block_key, check_options

KERNELS = ("ipython3", "python3", "python", "")
DISPLAY_TAGS = ("remove-input", "remove-output", "remove-cell", "hide-input", "hide-output")
TAGS = ("raises-exception", "skip-run-all") + DISPLAY_TAGS
# (a tag that folds a part, a tag that removes it): together they would show an empty fold, or fold nothing
CONTRADICTIONS = (("hide-output", "remove-output"), ("hide-output", "remove-cell"), ("hide-input", "remove-input"),
                  ("hide-input", "remove-cell"))


@dataclass
class CodeCell:
    """One cell: its number on the page, code, and where it sits in the source."""

    number: int  # its position among the page's cells: the page's element id and data id
    code: str
    raises: bool
    line: int
    code_line: int
    key: str = ""
    tags: tuple = ()
    checks: tuple = ()
    checks_line: int = 0
    skip_run_all: bool = False
    name: str = ""  # what the learner reads: "3" for the third cell they see, "3.1" for a removed one after it
    is_cell = True

    def resolve(self, lesson, errors):
        """Report a ':checks:' name that no quiz of the lesson has, or an output it folds that a tag removes."""
        removing = [tag for tag in ("remove-output", "remove-cell") if tag in self.tags]
        if self.checks and removing:
            errors.error(self.checks_line, "cell {} ':checks:' folds an output that '{}' removes; drop the tag or "
                         "':checks:'".format(self.name, removing[0]))
        quizzes = {quiz.key for quiz in lesson.quizzes}
        for name in self.checks:
            if name not in quizzes:
                known = ", ".join(sorted(key for key in quizzes if not key.startswith("~"))) or "none"
                errors.error(self.checks_line, "cell {} ':checks:' names quiz '{}', which the lesson does not have "
                             "(quizzes with an ':id:': {})".format(self.name, name, known))

    def render(self, context):
        """The cell's HTML: controls, highlighted code and its build-time output, as its display tags say.

        A removed part is not shown, with or without JavaScript: a removed cell's section (output only, so the
        browser's run can be compared with it) and a removed output are `hidden`; a removed input is not written
        (the page data has the code). A hidden part is folded into a <details> that opens without JavaScript.
        """
        strings = context.strings
        label = "{} {}".format(strings["cell_label"].capitalize(), self.name)
        shown = self.shows_input()
        output = ('<div class="cell-output" data-content aria-live="polite" aria-label="{output_label}" data-origin="build"'
                  '{anchor}{hidden}>{out}</div>\n').format(
            output_label=html.escape(strings["output_label"].format(n=self.name)),
            anchor="" if shown else anchor_attribute("cell", self.key),
            hidden=" hidden" if "remove-output" in self.tags else "",
            out=render_output(context.outputs.get(self.number, []), strings))
        if self.checks:
            printed = context.folded_answer(html.escape(label), output.replace(' aria-live="polite"', ""))
            output = _fold("answer", strings["cell_show_answer"], output) + printed
        elif "hide-output" in self.tags:
            output = _fold("output", strings["cell_show_output"], output)
        return (
            '<section class="cell" id="cell-{n}" data-cell="{n}" aria-label="{label}"{tags}{hidden}>\n'
            '{code}{output}</section>\n'
        ).format(
            n=self.number, label=html.escape(label), output=output,
            tags=' data-tags="{}"'.format(" ".join(self.tags)) if self.tags else "",
            hidden=" hidden" if "remove-cell" in self.tags else "",
            code=self._code_html(label, strings) if shown else "",
        )

    def shows_input(self):
        """Whether the page shows the cell's code (and its Run button)."""
        return not {"remove-input", "remove-cell"} & set(self.tags)

    def _code_html(self, label, strings):
        """The bar (name, Run, Reset, status) and the highlighted code, folded if the code is hidden."""
        code = ('<div class="cell-code" data-content tabindex="0" role="textbox" aria-readonly="true" aria-label="{code_label}">'
                '<pre class="code highlight"><code>{code}</code></pre></div>\n').format(
            code_label=html.escape(strings["code_label"].format(n=self.name)), code=highlight.highlight(self.code))
        if "hide-input" in self.tags:
            code = _fold("input", strings["cell_show_code"], code)
        return (
            '<div class="cell-bar"><span class="cell-name"{anchor}>{label}</span>'
            '<span class="cell-actions" hidden>'
            '<button type="button" class="button run" data-action="run" aria-label="{run_label}">{run}</button>'
            '<button type="button" class="button reset" data-action="reset" hidden>{reset}</button>'
            '</span><span class="cell-status" role="status"></span></div>\n'
        ).format(
            label=html.escape(label), anchor=anchor_attribute("cell", self.key),
            run=html.escape(strings["run"]), reset=html.escape(strings["reset"]),
            run_label=html.escape("{} {}".format(strings["run"], label)),
        ) + code

    def data(self):
        """What the page controller needs to run the cell."""
        return {"id": self.number, "name": self.name, "key": self.key, "code": self.code, "raises": self.raises,
                "tags": list(self.tags),
                "checks": list(self.checks), "skip_run_all": self.skip_run_all}


def _fold(part, summary, markup):
    """A part of the cell folded into a disclosure that opens without JavaScript."""
    return '<details class="cell-fold" data-fold="{}"><summary>{}</summary>\n{}</details>\n'.format(
        part, html.escape(summary), markup)


def visible_name(tags, context):
    """The cell's name on the page: cells the learner sees count 1, 2, 3…; a removed one is named after the one
    before it (3.1, 3.2), so removing bookkeeping from view leaves no gap in the numbers the learner reads."""
    if not {"remove-input", "remove-cell"} & set(tags):
        return str(context.next_number("shown cell"))
    shown = context.counters.get("shown cell", 0)
    return "{}.{}".format(shown, context.next_number(("removed cell", shown)))


def parse(directive, context):
    """Validate a code-cell directive and number it."""
    check_options(directive, context, ("checks", "id", "tags"))
    if directive.argument not in KERNELS:
        context.errors.error(directive.line, "code-cell kernel '{}' is not Python; write ```{{code-cell}} ipython3".format(
            directive.argument))
    tags = directive.options.get("tags", [])
    if not isinstance(tags, list):
        context.errors.error(directive.line, "':tags:' must be a list, such as ':tags: [raises-exception]'")
        tags = []
    for tag in tags:
        if tag not in TAGS:
            close = closest(tag, TAGS)
            context.errors.error(directive.line, "unknown cell tag '{}'{} (known: {})".format(
                tag, "; did you mean '{}'?".format(close) if close else "", ", ".join(TAGS)))
    for tag in sorted({tag for tag in tags if isinstance(tag, str) and tags.count(tag) > 1}):
        context.errors.error(directive.line, "cell tag '{}' is written twice in ':tags:'; keep one".format(tag))
    for folded, removing in CONTRADICTIONS:
        if folded in tags and removing in tags:
            context.errors.error(directive.line, "cell tags '{}' and '{}' contradict each other: '{}' removes what "
                                                 "'{}' folds; keep one".format(removing, folded, removing, folded))
    checks = directive.options.get("checks", [])
    if not isinstance(checks, list) or not all(isinstance(name, str) for name in checks):
        context.errors.error(directive.line, "':checks:' must list quiz ids in brackets, such as "
                                             "':checks: [e1-peso, e1-salida]'")
        checks = []
    elif "checks" in directive.options and not checks:
        context.errors.error(directive.line, "':checks: []' names no quiz; name the quizzes whose answers the "
                                             "output gives, such as ':checks: [e1-peso]', or remove the option")
    for name in sorted({name for name in checks if checks.count(name) > 1}):
        context.errors.error(directive.line, "':checks:' names quiz '{}' {} times; name each quiz once".format(
            name, checks.count(name)))
    if not directive.body.strip():
        context.errors.error(directive.line, "this code cell is empty; write its code or remove it")
    code = directive.body.rstrip("\n")
    return CodeCell(number=context.next_number("cell"), code=code, raises="raises-exception" in tags,
                    skip_run_all="skip-run-all" in tags, name=visible_name(tags, context),
                    line=directive.line, code_line=directive.body_line,
                    tags=tuple(tag for tag in tags if tag in DISPLAY_TAGS), checks=tuple(checks),
                    checks_line=directive.line,
                    key=block_key(directive, context, "cell", code))
