"""What every block parser shares: the parse context, block bodies and option checking."""

import hashlib
import html
import math
import re
from dataclasses import dataclass, field

from .. import mathml
from ..errors import closest
from .directive import looks_like_directive, malformed


@dataclass
class Body:
    """A block's Markdown, parsed when the lesson is read and rendered with the page (roles need the build's values)."""

    tokens: list


@dataclass
class ParseContext:
    """What a block's parser may use: the lesson, the error collector and the Markdown parser."""

    lesson: object
    errors: object
    markdown: object
    known: tuple = ()  # the directive names, for messages
    counters: dict = field(default_factory=dict)
    names: dict = field(default_factory=dict)  # (kind, name) -> line where it was first used

    def next_number(self, kind):
        """The 1-based position of the next block of this kind in the lesson."""
        self.counters[kind] = self.counters.get(kind, 0) + 1
        return self.counters[kind]

    def claim(self, kind, name, line):
        """Reserve a name for a block of this kind in the lesson; return the line that already holds it, or None."""
        earlier = self.names.get((kind, name))
        if earlier is None:
            self.names[(kind, name)] = line
        return earlier

    def hash_key(self, kind, source):
        """'~' and a short hash of the block's source; a second block with the same source gets '-2', and so on."""
        digest = "~" + hashlib.sha256(source.encode("utf-8")).hexdigest()[:10]
        seen = self.next_number(("hash", kind, digest))
        return digest if seen == 1 else "{}-{}".format(digest, seen)

    def parse_body(self, text, first_line):
        """Parse Markdown that starts at 1-based `first_line` of the lesson; report its math and nested directives."""
        tokens = self.markdown.parse(text)
        for token in tokens:
            if token.map is not None:
                token.map = [token.map[0] + first_line - 1, token.map[1] + first_line - 1]
        mathml.check(tokens, self.errors)
        for token in tokens:
            if looks_like_directive(token):
                self.errors.error(token.map[0] + 1, "'{}{}' sits inside another directive, and directives do not "
                                  "nest; move it after the enclosing block's closing fence".format(
                                      token.markup, token.info.strip()))
            elif token.type == "fence" and malformed(token, self.known):
                self.errors.error(token.map[0] + 1, malformed(token, self.known))
        body = Body(tokens)
        self.lesson.bodies.append(body)
        return body


def render_inline(context, body):
    """A short text's HTML without its paragraph, to sit inside a label, a legend or a summary."""
    rendered = context.render_body(body).strip()
    if rendered.startswith("<p>") and rendered.endswith("</p>") and rendered.count("<p>") == 1:
        rendered = rendered[3:-4]
    return rendered


def check_options(directive, context, allowed):
    """Report options the block does not know."""
    for key in directive.options:
        if key not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            close = closest(key, allowed)
            context.errors.error(directive.line, "directive '{}' has no option ':{}:'{} (known: {})".format(
                directive.name, key, "; did you mean ':{}:'?".format(close) if close else "", known))


KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


def block_key(directive, context, kind, source):
    """The key the learner's saved work for this block is stored under: its ':id:', else a hash of its source.

    A key does not depend on the block's position, so reordering blocks keeps each learner's work with its block;
    editing a block without an ':id:' gives it a new key (its earlier work is then set aside by the page).
    """
    explicit = directive.options.get("id")
    if explicit is None:
        return context.hash_key(kind, source)
    if not isinstance(explicit, str) or not KEY.match(explicit):
        context.errors.error(directive.line, "':id:' must be a name that starts with a letter (letters, digits, '_' "
                                             "and '-'), such as ':id: {}-scores'".format(kind))
        return context.hash_key(kind, source)
    earlier = context.claim(kind + " id", explicit, directive.line)
    if earlier is not None:
        context.errors.error(directive.line, "the {} id '{}' is already used at line {}; give each {} its own "
                                             "id".format(kind, explicit, earlier, kind))
    return explicit


def anchor(kind, key):
    """The element id a link to a block uses: '<kind>-<key>' for a key an author gave (a hash key is not stable)."""
    return None if key.startswith("~") else "{}-{}".format(kind, key)


def anchor_attribute(kind, key):
    """' id="<kind>-<key>"' for the label of a block whose key is stable, else nothing."""
    # On the label, not the block: the block's own element keeps its positional id, which the page controller finds.
    stable = anchor(kind, key)
    return ' id="{}"'.format(html.escape(stable)) if stable else ""


def non_finite(value, where=""):
    """The path ('quiz.answer', 'cells[2]') of the first number in page data that is not finite, or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return where or "the value"
    if isinstance(value, dict):
        items = (("{}.{}".format(where, name) if where else str(name), item) for name, item in value.items())
    elif isinstance(value, (list, tuple)):
        items = (("{}[{}]".format(where, index), item) for index, item in enumerate(value))
    else:
        return None
    for path, item in items:
        found = non_finite(item, path)
        if found is not None:
            return found
    return None
