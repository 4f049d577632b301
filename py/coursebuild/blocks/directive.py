"""What a directive is in the Markdown tokens: a fence whose info is `{name} argument`.

    ```{code-cell} ipython3          ::::{exercise} multi_head
    :tags: [raises-exception]        :checker: course.checkers.multi_head
    body                             body
    ```                              ::::

Options are `:key: value` lines right after the opening line (values are YAML);
one blank line may separate them from the body.
"""

import re
from dataclasses import dataclass

import yaml

DIRECTIVE = re.compile(r"^\{([A-Za-z0-9_-]*)\}\s*(.*)$")
OPTION = re.compile(r"^:([A-Za-z0-9_-]+):\s*(.*)$")
FENCES = ("fence", "colon_fence")


@dataclass
class Directive:
    """A fenced directive as written: name, argument, options and body, with line numbers."""

    name: str
    argument: str
    options: dict
    body: str
    line: int  # 1-based line of the opening fence
    body_line: int  # 1-based line where the body starts
    token: object = None


def looks_like_directive(token):
    """True for a fence that is a directive or an attempt at one (braces, or a colon fence)."""
    return token.type == "colon_fence" or (token.type == "fence" and token.info.strip().startswith("{"))


def read_directive(token, errors):
    """Turn a `{name}` fence into a Directive, or None for an ordinary fence."""
    if token.type not in FENCES:
        return None
    match = DIRECTIVE.match(token.info.strip())
    if match is None:
        return None
    name, argument = match.group(1), match.group(2).strip()
    line = token.map[0] + 1
    body_lines = token.content.splitlines(True)
    options = {}
    consumed = 0
    for text in body_lines:
        option = OPTION.match(text.rstrip("\n"))
        if option is None:
            break
        key, raw = option.group(1), option.group(2)
        try:
            options[key] = yaml.safe_load(raw) if raw.strip() else True
        except yaml.YAMLError:
            errors.error(line + 1 + consumed, "option ':{}:' has a value that is not valid YAML: {}".format(key, raw))
        consumed += 1
    if consumed and consumed < len(body_lines) and not body_lines[consumed].strip():
        consumed += 1  # one blank line may separate options from the body
    body = "".join(body_lines[consumed:])
    return Directive(name=name, argument=argument, options=options, body=body,
                     line=line, body_line=line + 1 + consumed, token=token)
