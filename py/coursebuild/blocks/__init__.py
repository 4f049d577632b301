"""The table of lesson block types.

Each module in this package handles one directive: `parse(directive, context)`
validates it and returns a block (or None after reporting errors), and the
block's `render(context)` returns its HTML. A new block type is one new module
plus one line in BLOCKS.

A block's Markdown (an answer's body, a quiz's question, options and
explanation, an exercise's prompt and hints, a caption) is parsed when the
lesson is read and rendered with the page:

    body = context.parse_body(text, first_line)   # in parse(): ParseContext
    html = context.render_body(body)              # in render(): render.RenderContext

`parse_body` reports the body's math errors and nested directives at their
lines in the file (`first_line` is where `text` starts) and records the body on
the lesson, so the build checks its roles with the rest of the lesson;
`render_body` renders it like the page's prose, so `{glue}` and every other
role see the values the build computed.
"""

from ..errors import closest
from . import answer, code_cell, exercise, explorable, further_reading, quiz, self_check
from .base import ParseContext, check_options, non_finite
from .directive import malformed

BLOCKS = {
    "answer": answer,
    "code-cell": code_cell,
    "exercise": exercise,
    "explorable": explorable,
    "further-reading": further_reading,
    "quiz": quiz,
    "self-check": self_check,
}


def parse(directive, context):
    """Dispatch a directive to its block type, reporting unknown names."""
    module = BLOCKS.get(directive.name)
    if module is None:
        close = closest(directive.name, BLOCKS)
        context.errors.error(directive.line, "unknown directive '{}'{} (known: {})".format(
            directive.name, "; did you mean '{}'?".format(close) if close else "", ", ".join(sorted(BLOCKS))))
        return None
    reported = len(context.errors.errors)
    block = module.parse(directive, context)
    if block is not None and len(context.errors.errors) == reported:
        check_data(block, directive, context)
    return block


def resolve(lesson, errors):
    """Let blocks that name other blocks (a self-check) find them, once the whole lesson is parsed."""
    for block in lesson.blocks:
        if hasattr(block, "resolve"):
            block.resolve(lesson, errors)


def check_data(block, directive, context):
    """Report a number in the block's page data that is not finite (JSON has no NaN or Infinity: the page would not load)."""
    data = getattr(block, "data", None)
    where = non_finite(data()) if data is not None else None
    if where is not None:
        context.errors.error(directive.line, "the {} block would write a number that is not finite into the page "
                                             "({}); write a finite number".format(directive.name, where))


def check_fence(token, errors):
    """Report a fence that looks like a directive (braces, a colon fence, a directive's name) but is not one."""
    problem = malformed(token, BLOCKS) if token.type in ("fence", "colon_fence") else None
    if problem:
        errors.error(token.map[0] + 1, problem)


__all__ = ["BLOCKS", "ParseContext", "check_fence", "check_options", "parse", "resolve"]
