"""An explorable: a figure whose states a function in py/ computes at build time.

    ```{explorable} rule-heads
    :function: course.explorables.rule_heads:states
    :args: {}
    Caption in Markdown.
    ```

The function returns plain data (validated as JSON); the page draws it with the
ES module of the same kind (site/page/explorables/<kind>.js), before Python
loads and offline. A "glue" entry in the result names values the prose may
quote with {glue}`name`. Kinds and their static renderers live in
coursebuild.explorables.
"""

import html
import importlib
import json
from dataclasses import dataclass, field

from .. import explorables
from .base import check_options


@dataclass
class Explorable:
    """One explorable: its kind, where its data comes from, and the data once computed."""

    number: int
    kind: str
    function: str
    args: dict
    caption: object
    line: int
    state: dict = field(default_factory=dict)
    is_explorable = True

    def compute(self):
        """Call the py/ function; return an error message, or None when the state is valid."""
        module_name, _, name = self.function.partition(":")
        try:
            function = getattr(importlib.import_module(module_name), name)
            state = function(**self.args)
            state = json.loads(json.dumps(state))
        except Exception as error:  # any failure of the author's function becomes a build error
            return "explorable '{}': {} failed: {}: {}".format(self.kind, self.function, type(error).__name__, error)
        problem = explorables.KINDS[self.kind].validate(state)
        if problem:
            return "explorable '{}': {} returned an invalid state: {}".format(self.kind, self.function, problem)
        self.state = state
        return None

    def data(self):
        return {"id": self.number, "kind": self.kind, "function": self.function, "state": self.state}

    def render(self, context):
        """The first state drawn as static HTML; the page's module makes it interactive."""
        body = explorables.KINDS[self.kind].render(self.state, self.number, context)
        return ('<figure class="explorable" id="explorable-{n}" data-kind="{kind}">\n{body}'
                '<figcaption>{caption}</figcaption>\n</figure>\n').format(
                    n=self.number, kind=html.escape(self.kind), body=body, caption=context.render_body(self.caption))


def parse(directive, context):
    """Check the kind and the function's name; the function runs later, with the cells."""
    check_options(directive, context, ("function", "args"))
    if directive.argument not in explorables.KINDS:
        context.errors.error(directive.line, "unknown explorable kind '{}' (known: {})".format(
            directive.argument, ", ".join(sorted(explorables.KINDS))))
        return None
    function = directive.options.get("function")
    if not isinstance(function, str) or ":" not in function:
        context.errors.error(directive.line, "an explorable needs ':function: module:name' naming a function in py/")
        return None
    args = directive.options.get("args", {})
    if not isinstance(args, dict):
        context.errors.error(directive.line, "':args:' must be a mapping, such as ':args: {row: 3}'")
        return None
    return Explorable(number=context.next_number("explorable"), kind=directive.argument, function=function,
                      args=args, caption=context.parse_body(directive.body, directive.body_line),
                      line=directive.line)
