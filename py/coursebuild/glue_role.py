"""The {glue}`name` role: prose quotes a value that a lesson cell computed with course.glue.glue()."""

import html

from course.numbers import number

from .tokens import children_with_lines

ROLES = ("glue",)


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
                number(values[name], spec, lesson.language)
            except (ValueError, TypeError) as error:
                errors.error(line, "{{glue}}`{}`: the format '{}' does not fit the value {!r} ({})".format(
                    child.content, spec, values[name], error))


def render(token, values, language):
    """The HTML of one role token."""
    name, spec = split(token.content)
    text = number(values[name], spec, language)
    return '<span class="glued" data-glue="{}">{}</span>'.format(html.escape(name), html.escape(text))
