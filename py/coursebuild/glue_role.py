"""The {glue}`name` role: prose quotes a value that a lesson cell computed with course.glue.glue()."""

import html

from .i18n import number_format
from .tokens import children_with_lines

ROLES = ("glue",)


def format_value(value, spec, language):
    """Format a glued value with an optional format spec, in the lesson's language's digits."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return format(value, spec) if spec else str(value)
    text = format(value, spec) if spec else (format(value, "d") if isinstance(value, int) else repr(value))
    return _localize(text, language)


def _localize(text, language):
    """Python's digits ('-1048576.5') written with the language's decimal mark and thousands grouping."""
    numbers = number_format(language)
    sign = "-" if text.startswith("-") else ""
    digits = text.lstrip("-")
    whole, dot, fraction = digits.partition(".")
    if whole.isdigit() and len(whole) >= numbers.group_from:
        groups = []
        while whole:
            groups.insert(0, whole[-3:])
            whole = whole[:-3]
        whole = numbers.thousands.join(groups)
    return sign + whole + (numbers.decimal + fraction if dot else "")


def split(content):
    """'name:spec' -> ('name', 'spec')."""
    name, _, spec = content.partition(":")
    return name.strip(), spec.strip()


def check(lesson, values, errors):
    """Report roles that are unknown, name no glued value, or whose format does not fit the value."""
    for token in (token for tokens in lesson.token_lists() for token in tokens):
        for child, line in children_with_lines(token):
            if child.type != "myst_role":
                continue
            role = child.meta.get("name")
            if role not in ROLES:
                errors.error(line, "unknown role '{{{}}}' (known: {})".format(role, ", ".join(ROLES)))
                continue
            name, spec = split(child.content)
            if name not in values:
                known = ", ".join(sorted(values)) or "none"
                # A cell that failed leaves every value after it unrecorded: those are echoes of its error.
                errors.error(line, "{{glue}}`{}` names no value; call glue(\"{}\", value) in a cell "
                                   "(glued: {})".format(name, name, known), consequence=True)
                continue
            try:
                format_value(values[name], spec, lesson.language)
            except (ValueError, TypeError) as error:
                errors.error(line, "{{glue}}`{}`: the format '{}' does not fit the value {!r} ({})".format(
                    child.content, spec, values[name], error))


def render(token, values, language):
    """The HTML of one role token."""
    name, spec = split(token.content)
    text = format_value(values[name], spec, language)
    return '<span class="glued" data-glue="{}">{}</span>'.format(html.escape(name), html.escape(text))
