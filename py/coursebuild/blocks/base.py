"""What every block parser shares: the parse context and option checking."""

from dataclasses import dataclass, field

from .. import mathml


@dataclass
class ParseContext:
    """What a block's parser may use: the lesson, the error collector and the Markdown parser."""

    lesson: object
    errors: object
    markdown: object
    counters: dict = field(default_factory=dict)

    def next_number(self, kind):
        """The 1-based position of the next block of this kind in the lesson."""
        self.counters[kind] = self.counters.get(kind, 0) + 1
        return self.counters[kind]

    def render_markdown(self, body, first_line):
        """Render a directive's Markdown body, reporting its math errors at their lines."""
        tokens = self.markdown.parse(body)
        for token in tokens:
            if token.map is not None:
                token.map = [token.map[0] + first_line - 1, token.map[1] + first_line - 1]
        mathml.check(tokens, self.errors)
        return self.markdown.renderer.render(tokens, self.markdown.options, {})


def check_options(directive, context, allowed):
    """Report options the block does not know."""
    for key in directive.options:
        if key not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            context.errors.error(directive.line, "directive '{}' has no option ':{}:' (known: {})".format(
                directive.name, key, known))
