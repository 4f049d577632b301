"""Further reading at the end of a lesson: `:::{further-reading}` with a Markdown list."""

import html
from dataclasses import dataclass

from .base import check_options


@dataclass
class FurtherReading:
    """An aside headed by the UI's "further reading" title."""

    body: object

    def render(self, context):
        """An <aside> with a localized heading and the author's list."""
        return ('<aside class="further-reading" aria-labelledby="further-reading">\n'
                '<h2 id="further-reading">{}</h2>\n{}</aside>\n').format(
                    html.escape(context.strings["further_reading"]), context.render_body(self.body))


def parse(directive, context):
    """The body must hold at least one link."""
    check_options(directive, context, ())
    if "](" not in directive.body and "<http" not in directive.body:
        context.errors.error(directive.line, "further-reading lists sources: add at least one Markdown link")
    return FurtherReading(body=context.parse_body(directive.body, directive.body_line))
