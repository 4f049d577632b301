"""Explorable kinds: for each, how to validate its state and draw its first view as static HTML.

A new kind is a module here with validate(state) and render(state, number, context),
one line in KINDS, and an ES module of the same name in site/page/explorables/.
"""

from . import rule_heads

KINDS = {
    "rule-heads": rule_heads,
}
