"""An explorable: an interactive figure declared by one module of py/course/explorables/.

    ```{explorable} rule-heads
    Caption in Markdown.
    ```

The argument names the module (course.explorables.rule_heads; dashes become
underscores). Its explorable() declares controls and views from the vocabulary of
course.explorables.engine; the build precomputes every state of its discrete controls
and draws them (coursebuild.explorables), and site/page/explorable.js switches between
them before Python loads. A glue() in the module names values the prose may quote.
"""

import html
import importlib
import json
import pkgutil
from dataclasses import dataclass, field

import course.explorables
from course.explorables import engine

from .. import explorables
from .base import check_options


@dataclass
class Explorable:
    """One explorable block: its module, its caption, and its states once computed."""

    number: int
    module: str
    caption: object  # the parsed Markdown body, rendered with the page
    line: int
    declaration: object = None
    states: dict = field(default_factory=dict)
    state: dict = field(default_factory=dict)  # {"glue": {name: value}}, which the build hands to the prose
    is_explorable = True

    def compute(self):
        """Compute every state and the glue; return an error message, or None."""
        try:
            self.declaration = engine.load(self.module)
            self.states = explorables.compute(self.declaration)
            glue = self.declaration.glue() if self.declaration.glue else {}
            self.state = {"glue": json.loads(json.dumps(glue))}
        except engine.DeclarationError as error:
            return "explorable '{}': {}".format(self.module, error)
        except Exception as error:  # any failure of the module's own code becomes a build error
            return "explorable '{}': {}: {}".format(self.module, type(error).__name__, error)
        return None

    def data(self):
        """What the page controller reads from the page data: which figure, and that the engine drives it."""
        return {"id": self.number, "kind": "explorable"}

    def render(self, context):
        """Every state drawn as static HTML, the first one shown; the page's controller switches them."""
        body = explorables.render(self.declaration, self.states, self.module, self.number, context.strings,
                                  context.lesson.language)
        return ('<figure class="explorable" id="explorable-{n}" data-module="{module}">\n{body}'
                '<figcaption>{caption}</figcaption>\n</figure>\n').format(
                    n=self.number, module=html.escape(self.module), body=body, caption=context.render_body(self.caption))


def known_modules():
    """The modules of course/explorables/ that declare an explorable."""
    names = []
    for info in pkgutil.iter_modules(course.explorables.__path__):
        if info.name != "engine" and hasattr(importlib.import_module("course.explorables." + info.name),
                                             "explorable"):
            names.append(info.name)
    return sorted(names)


def parse(directive, context):
    """Check that the argument names an explorable module; its states are computed later, with the cells."""
    check_options(directive, context, ())
    module = (directive.argument or "").strip().replace("-", "_")
    known = known_modules()
    if module not in known:
        context.errors.error(directive.line, "no explorable '{}' in py/course/explorables/ (known: {}); write "
                                             "the module's name, such as ```{{explorable}} rule-heads".format(
                                                 directive.argument, ", ".join(name.replace("_", "-")
                                                                               for name in known)))
        return None
    return Explorable(number=context.next_number("explorable"), module=module,
                      caption=context.parse_body(directive.body, directive.body_line), line=directive.line)
