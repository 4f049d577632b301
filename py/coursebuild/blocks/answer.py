"""A collapsible answer or aside: `:::{answer} Title` with Markdown inside.

The title is inline Markdown, as the body is: math, `code` and {glue}`name` (checked like the
body's) are rendered in the summary.
"""

import html
from dataclasses import dataclass

from .base import check_options, render_inline


@dataclass
class Answer:
    """A <details> element whose body is the directive's Markdown."""

    title: object  # the parsed Markdown of the title, or None for the page's own word
    body: object

    def render(self, context):
        """A closed <details> with its title as the summary."""
        title = render_inline(context, self.title) if self.title else html.escape(context.strings["answer"])
        body = context.render_body(self.body)
        return '<details class="answer">\n<summary>{}</summary>\n{}</details>\n{}'.format(
            title, body, context.folded_answer(title, body))


def parse(directive, context):
    """Parse the body now, so its errors are found with the rest; it is rendered with the page."""
    check_options(directive, context, ())
    if not directive.body.strip():
        context.errors.error(directive.line, "this answer is empty; write its text or remove it")
    title = context.parse_body(directive.argument, directive.line) if directive.argument else None
    return Answer(title=title, body=context.parse_body(directive.body, directive.body_line))
