"""A self-check list: what a learner should now be able to do, each item linked to the blocks that practise it.

    ```{self-check}
    - text: Calcular la atención a mano y con código.
      quiz: [e1-peso, e3-por-diez]
      cell: e1-cuenta
    - text: Explicar la máscara causal.
      exercise: atencion_causal
    ```

Each item names blocks by their stable key: a quiz's or a cell's `:id:`, an
exercise's id (one name or a list). The build refuses a name no block has, at
its line. The page ticks an item when every quiz it names is answered right and
every exercise it names is passed, read from the learner's saved work. Running
a cell is not saved, so a cell is a link, never a condition; an item that names
only cells says that nothing checks it. Links go to the blocks' stable anchors,
labelled with the heading each block sits under.
"""

import html
import re
from dataclasses import dataclass, field

import yaml

from ..errors import closest
from .base import KEY, anchor, check_options, render_inline

KINDS = ("quiz", "exercise", "cell")  # the blocks an item may name, in the order its links are listed
CHECKED = ("quiz", "exercise")  # the kinds whose saved work can tick an item
ITEM_KEYS = ("text",) + KINDS
PLURALS = {"quiz": "quizzes", "exercise": "exercises", "cell": "cells"}


@dataclass
class Reference:
    """One block an item names: its kind, its key, the line naming it, and (once resolved) the block."""

    kind: str
    name: str
    line: int
    block: object = None
    order: int = 0  # the block's place in the page
    section: object = None  # the inline token of the heading the block sits under, or None


@dataclass
class Item:
    """One thing the learner should be able to do, and the blocks that practise it."""

    text: object
    references: list = field(default_factory=list)

    def checked(self):
        """The references whose saved work can tick this item."""
        return [reference for reference in self.references if reference.kind in CHECKED]


@dataclass
class SelfCheck:
    """The list: its position among the lesson's self-checks and its items."""

    number: int
    items: list
    is_self_check = True

    def data(self):
        """What the page reads from saved work: for each item, the keys of the quizzes and exercises it names."""
        return {"id": self.number, "items": [
            {kind: [ref.name for ref in item.references if ref.kind == kind] for kind in CHECKED} for item in self.items]}

    def resolve(self, lesson, errors):
        """Find every named block in the lesson and the heading it sits under; report names no block has."""
        places = _places(lesson)
        stable = {kind: {_key(block): block for block in _blocks(lesson, kind) if anchor(kind, _key(block))}
                  for kind in KINDS}
        for number, item in enumerate(self.items, 1):
            for reference in item.references:
                reference.block = stable[reference.kind].get(reference.name)
                if reference.block is None:
                    errors.error(reference.line, _unknown(number, reference, stable[reference.kind]))
                else:
                    reference.order, reference.section = places[id(reference.block)]

    def render(self, context):
        """A list whose items link to their blocks; the page fills in each item's tick and the summary."""
        strings = context.strings
        items = "".join(_render_item(index, item, context) for index, item in enumerate(self.items))
        return ('<section class="self-check" id="self-check-{n}" aria-label="{label}">\n'
                '<p class="self-check-summary" hidden></p>\n'
                '<p class="self-check-rule" hidden>{rule}</p>\n'
                '<ul class="self-check-list">\n{items}</ul>\n</section>\n').format(
                    n=self.number, label=html.escape(strings["self_check_label"]),
                    rule=html.escape(strings["self_check_rule"]), items=items)


def _render_item(index, item, context):
    """One item: a mark and its spoken state (filled in by the page), the text, and where it was practised."""
    strings = context.strings
    links = ", ".join('<a href="#{}">{}</a>'.format(html.escape(anchor(ref.kind, ref.name)), _label(ref, context))
                      for ref in _first_per_section(item.references))
    manual = "" if item.checked() else ' <span class="self-check-manual">({})</span>'.format(
        html.escape(strings["self_check_manual"]))
    return ('<li class="self-check-item" data-item="{index}" data-state="{state}">'
            '<span class="self-check-mark" aria-hidden="true"></span><span class="self-check-state visually-hidden">'
            '</span><span class="self-check-text" data-content>{text}</span> <span class="self-check-where">{where}: {links}{manual}'
            '<span class="self-check-progress"></span></span></li>\n').format(
                index=index, state="" if item.checked() else "manual", text=render_inline(context, item.text),
                where=html.escape(strings["self_check_where"]), links=links, manual=manual)


def _first_per_section(references):
    """The references to link: the first in page order under each heading (one link per place practised)."""
    seen, kept = set(), []
    for reference in sorted(references, key=lambda ref: ref.order):
        where = id(reference.section) if reference.section is not None else ("block", id(reference.block))
        if where not in seen:
            seen.add(where)
            kept.append(reference)
    return kept


def _label(reference, context):
    """A link's text: the heading the block sits under, else the block's own name ('Pregunta 3', 'Celda 5')."""
    if reference.section is not None:
        return context.markdown.renderer.renderInline(reference.section.children, context.markdown.options,
                                                      {"context": context})
    strings = context.strings
    block = reference.block
    if reference.kind == "quiz":
        return html.escape(strings["quiz_question"].format(n=block.number).rstrip("."))
    if reference.kind == "cell":
        return html.escape("{} {}".format(strings["cell_label"].capitalize(), block.number))
    return "{}: <code>{}</code>".format(html.escape(strings["exercise_title"]), html.escape(block.id))




def _key(block):
    """The name an item uses for a block: an exercise's id, a quiz's or cell's key."""
    return block.id if getattr(block, "is_exercise", False) else block.key


def _blocks(lesson, kind):
    """The lesson's blocks of one kind."""
    return {"quiz": lesson.quizzes, "exercise": lesson.exercises, "cell": lesson.cells}[kind]


def _places(lesson):
    """id(block) -> (its place in the page, the inline token of the last heading before it or None)."""
    places, heading, opened = {}, None, False
    for order, token in enumerate(lesson.tokens):
        if token.type == "heading_open":
            opened = True
        elif opened and token.type == "inline":
            heading, opened = token, False
        block = token.meta.get("block") if token.meta else None
        if block is not None:
            places[id(block)] = (order, heading)
    return places


def _unknown(number, reference, known):
    """The error for a name no block of that kind has: the names the lesson does have, and how to name a block."""
    kind, name = reference.kind, reference.name
    close = closest(name, known)
    how = ("an exercise is named by the id after '{exercise}'" if kind == "exercise"
           else "to name one, give it an ':id: {}' line after its opening line".format(_valid_id(kind, name)))
    return "self-check item {} names {} '{}', which no {} in the lesson has{}; {} (named {}: {})".format(
        number, kind, name, kind, " (did you mean '{}'?)".format(close) if close else "", how, PLURALS[kind],
        ", ".join(sorted(known)) or "none")


def _valid_id(kind, name):
    """`name` if an ':id:' may be it, else the closest one that may ('~0123456789' -> 'quiz-0123456789')."""
    if KEY.match(name):
        return name
    kept = re.sub(r"[^A-Za-z0-9_-]", "", name)
    return kept if KEY.match(kept) else "{}-{}".format(kind, kept).rstrip("-")


def parse(directive, context):
    """Validate the list's YAML: each item has a text and names at least one block."""
    check_options(directive, context, ())
    try:
        root = yaml.compose(directive.body)
        spec = yaml.safe_load(directive.body)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        context.errors.error(directive.body_line + (mark.line if mark else 0),
                             "the self-check is not valid YAML ({})".format(getattr(error, "problem", error)))
        return None
    if not isinstance(spec, list) or not spec or not isinstance(root, yaml.SequenceNode):
        context.errors.error(directive.line, "a self-check is a YAML list of items, each '- text: …' with the blocks "
                                             "that practise it ('quiz:', 'exercise:' or 'cell:' and their ids)")
        return None
    items = [_parse_item(number, node, value, directive, context)
             for number, (node, value) in enumerate(zip(root.value, spec), 1)]
    if None in items:
        return None
    return SelfCheck(number=context.next_number("self-check"), items=items)


def _parse_item(number, node, value, directive, context):
    """One item from its YAML node (for lines) and value; None after reporting what is wrong."""
    first = directive.body_line
    line = first + node.start_mark.line
    if not isinstance(value, dict) or not isinstance(node, yaml.MappingNode):
        context.errors.error(line, "self-check item {} must be 'text:' and the blocks that practise it".format(number))
        return None
    lines = {key.value: (first + key.start_mark.line, item) for key, item in node.value}
    ok = True
    for key, (key_line, _) in lines.items():
        if key not in ITEM_KEYS:
            close = closest(key, ITEM_KEYS)
            context.errors.error(key_line, "self-check item {} has no key '{}:'{} (known: {})".format(
                number, key, "; did you mean '{}:'?".format(close) if close else "", ", ".join(ITEM_KEYS)))
            ok = False
    text = value.get("text")
    if not isinstance(text, str) or not text.strip():
        context.errors.error(line, "self-check item {} lacks 'text:', what the learner should be able to do".format(number))
        ok = False
    references = [ref for kind in KINDS if kind in lines for ref in _references(number, kind, lines[kind], first, context)]
    if None in references:
        return None
    if not references and not any(key not in ITEM_KEYS for key in lines):
        context.errors.error(line, "self-check item {} names no block; add 'quiz:', 'exercise:' or 'cell:' with the "
                                   "ids of the blocks that practise it".format(number))
        ok = False
    if not ok:
        return None
    text_line = first + lines["text"][1].start_mark.line + (1 if lines["text"][1].style in ("|", ">") else 0)
    return Item(text=context.parse_body(text, text_line), references=references)


def _references(number, kind, where, first, context):
    """The References of one 'kind: name' or 'kind: [names]' entry; None in the list for a malformed name."""
    key_line, node = where
    scalars = node.value if isinstance(node, yaml.SequenceNode) else [node]
    found = []
    for scalar in scalars:
        if not isinstance(scalar, yaml.ScalarNode) or not scalar.value or scalar.tag != "tag:yaml.org,2002:str":
            context.errors.error(first + scalar.start_mark.line, "self-check item {}: '{}:' takes the id of a {} or a "
                                 "list of ids, such as '{}: [first, second]'".format(number, kind, kind, kind))
            return [None]
        found.append(Reference(kind=kind, name=scalar.value, line=first + scalar.start_mark.line))
    return found
