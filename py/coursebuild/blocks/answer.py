"""A collapsible answer or aside: `:::{answer} Title` with Markdown inside."""

import html
from dataclasses import dataclass

from .base import check_options


@dataclass
class Answer:
    """A <details> element whose body is the directive's Markdown."""

    title: str
    body_html: str

    def render(self, context):
        """A closed <details> with its title as the summary."""
        title = self.title or context.strings["answer"]
        return '<details class="answer">\n<summary>{}</summary>\n{}</details>\n'.format(
            html.escape(title), self.body_html)


def parse(directive, context):
    """Render the body as Markdown now, so its errors are found with the rest."""
    check_options(directive, context, ())
    if not directive.body.strip():
        context.errors.error(directive.line, "this answer is empty; write its text or remove it")
    return Answer(title=directive.argument, body_html=context.render_markdown(directive.body, directive.body_line))
