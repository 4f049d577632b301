"""The table of lesson block types.

Each module in this package handles one directive: `parse(directive, context)`
validates it and returns a block (or None after reporting errors), and the
block's `render(context)` returns its HTML. A new block type is one new module
plus one line in BLOCKS.
"""

from . import answer, code_cell, exercise, explorable, further_reading, quiz
from .base import ParseContext, check_options

BLOCKS = {
    "answer": answer,
    "code-cell": code_cell,
    "exercise": exercise,
    "explorable": explorable,
    "further-reading": further_reading,
    "quiz": quiz,
}


def parse(directive, context):
    """Dispatch a directive to its block type, reporting unknown names."""
    module = BLOCKS.get(directive.name)
    if module is None:
        context.errors.error(directive.line, "unknown directive '{}' (known: {})".format(
            directive.name, ", ".join(sorted(BLOCKS))))
        return None
    return module.parse(directive, context)


__all__ = ["BLOCKS", "ParseContext", "check_options", "parse"]
