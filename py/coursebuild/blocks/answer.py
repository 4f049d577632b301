"""A collapsible answer or aside: `:::{answer} Title` with Markdown inside."""

import html
from dataclasses import dataclass

from .base import check_options


@dataclass
class Answer:
    """A <details> element whose body is the directive's Markdown."""

    title: str
    body: object

    def render(self, context):
        """A closed <details> with its title as the summary."""
        title = self.title or context.strings["answer"]
        return '<details class="answer">\n<summary>{}</summary>\n{}</details>\n'.format(
            html.escape(title), context.render_body(self.body))


def parse(directive, context):
    """Parse the body now, so its errors are found with the rest; it is rendered with the page."""
    check_options(directive, context, ())
    if not directive.body.strip():
        context.errors.error(directive.line, "this answer is empty; write its text or remove it")
    return Answer(title=directive.argument, body=context.parse_body(directive.body, directive.body_line))
