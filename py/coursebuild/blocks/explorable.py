"""An explorable: an interactive figure declared by one module of its lesson's package.

    ```{explorable} rule-heads
    Caption in Markdown.
    ```

The argument names the module <package>/explorables/rule_heads.py of the lesson's own
package (dashes become underscores). Its explorable() declares controls and views from
the vocabulary of course.explorables.engine; the build draws every state of its discrete
controls through the runner, in a fresh process (coursebuild.explorables.prerender), and
site/page/explorable.js switches between them before Python loads. A glue() in the module
names values the prose may quote.
"""

import html
from dataclasses import dataclass, field

from .base import check_options


@dataclass
class Explorable:
    """One explorable block: its module, its caption, and its drawn states once the runner has drawn them."""

    number: int
    module: str  # '<package>.explorables.<name>'
    caption: object  # the parsed Markdown body, rendered with the page
    line: int
    html: str = ""
    glue: dict = field(default_factory=dict)  # {name: value}, which the build hands to the prose
    is_explorable = True

    def data(self):
        """What the page controller reads from the page data: which figure, and that the engine drives it."""
        return {"id": self.number, "kind": "explorable"}

    def render(self, context):
        """Every state drawn as static HTML, the first one shown; the page's controller switches them."""
        return ('<figure class="explorable" id="explorable-{n}" data-module="{module}">\n{body}'
                '<figcaption data-content>{caption}</figcaption>\n</figure>\n').format(
                    n=self.number, module=html.escape(self.module), body=self.html,
                    caption=context.render_body(self.caption))


def known_modules(lesson):
    """The explorable modules of the lesson's package, by file: nothing is imported to list them."""
    package = lesson.package_dir
    if package is None:
        return []
    return sorted(path.stem for path in (package / "explorables").glob("*.py") if path.stem != "__init__")


def parse(directive, context):
    """Check that the argument names a module of the lesson's explorables; its states are drawn later, with the cells."""
    check_options(directive, context, ())
    name = (directive.argument or "").strip().replace("-", "_")
    lesson = context.lesson
    known = known_modules(lesson)
    if name not in known:
        context.errors.error(directive.line, "no explorable '{}' in {}/explorables/ (known: {}); write the module's "
                                             "name, such as ```{{explorable}} rule-heads".format(
                                                 directive.argument, lesson.package,
                                                 ", ".join(item.replace("_", "-") for item in known) or "none"))
        return None
    return Explorable(number=context.next_number("explorable"), module="{}.explorables.{}".format(lesson.package, name),
                      caption=context.parse_body(directive.body, directive.body_line), line=directive.line)
