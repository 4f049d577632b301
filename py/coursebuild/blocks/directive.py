"""What a directive is in the Markdown tokens: a fence whose info is `{name} argument`.

    ```{code-cell} ipython3          ::::{exercise} multi_head
    :tags: [raises-exception]        :checker: multi_head
    body                             body
    ```                              ::::

Options are `:key: value` lines right after the opening line (values are YAML);
one blank line may separate them from the body. MyST's other form, a YAML block
between two `---` lines right after the opening line, gives the same options:

    ```{code-cell} ipython3
    ---
    tags: [remove-input]
    ---
    body
    ```
"""

import difflib
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


def malformed(token, known):
    """What is wrong with a fence that looks like a directive but is not one, or None; `known` are the names."""
    info = token.info.strip()
    names = ", ".join(sorted(known))
    if token.type == "fence" and info.startswith("{") and DIRECTIVE.match(info) is None:
        written = info[1:].split("}", 1)[0]
        return "'{}{}' is not a directive: a name has no spaces and ends with '}}'{} (known: {})".format(
            token.markup, info, _did_you_mean(written, known, token.markup), names)
    if token.type == "colon_fence" and DIRECTIVE.match(info) is None:
        written = info.split()[0] if info else ""
        return "'{}{}' is not a directive: a colon fence names one in braces{} (known: {})".format(
            token.markup, info, _did_you_mean(written, known, token.markup), names)
    first = info.split()[0] if info else ""
    if token.type == "fence" and _normal(first) in known:
        return "'{}{}' is a plain code block named like a directive; write '{}{{{}}}'".format(
            token.markup, info, token.markup, _normal(first))
    return None


def _normal(name):
    """A directive name as an author may have misspelled its separators: 'Code cell' -> 'code-cell'."""
    return re.sub(r"[\s_]+", "-", name.strip().lower())


def _did_you_mean(written, known, markup):
    """', such as ':::{answer}'' for the known name closest to what was written, or nothing."""
    close = difflib.get_close_matches(_normal(written), list(known), n=1, cutoff=0.6)
    return ", such as '{}{{{}}}'".format(markup, close[0]) if close else ""


def _check_stray_option(body_lines, consumed, line, errors):
    """Report an option line after a blank line: it would silently become part of the body."""
    for offset in range(consumed, len(body_lines)):
        text = body_lines[offset].rstrip("\n")
        if text.strip():
            option = OPTION.match(text)
            if option is not None:
                errors.error(line + 1 + offset, "':{}:' looks like an option but is not right after the directive's "
                                                "first line; remove the blank line above it".format(option.group(1)))
            return


def _option_block(body_lines, line, options, errors):
    """Read a `---` YAML option block at the top of a directive's body into `options`; how many lines it takes."""
    if not body_lines or body_lines[0].rstrip() != "---":
        return 0
    end = next((index for index in range(1, len(body_lines)) if body_lines[index].rstrip() == "---"), None)
    if end is None:
        errors.error(line + 1, "the option block opened with '---' is never closed; end it with a '---' line "
                               "before the directive's body")
        return 0
    try:
        block = yaml.safe_load("".join(body_lines[1:end]))
    except RecursionError:  # PyYAML composes nested values recursively
        errors.error(line + 1, "the option block between '---' lines is nested too deeply for YAML to read; write "
                               "'name: value' lines, with lists a few levels deep")
        return end + 1
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        at = min(mark.line, end - 2) if mark else 0  # an error at the block's end is its last line's
        errors.error(line + 2 + at, "the option block between '---' lines is not valid YAML ({})".format(
            getattr(error, "problem", error)))
        return end + 1
    if block is None:
        block = {}
    if not isinstance(block, dict) or not all(isinstance(key, str) for key in block):
        errors.error(line + 1, "the option block between '---' lines must be 'name: value' lines, such as "
                               "'tags: [remove-input]'")
        return end + 1
    options.update(block)
    return end + 1


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
    consumed = _option_block(body_lines, line, options, errors)
    written = {key: line + 1 for key in options}  # option -> the line it is first written at
    for text in body_lines[consumed:]:
        option = OPTION.match(text.rstrip("\n"))
        if option is None:
            break
        key, raw = option.group(1), option.group(2)
        if key in written:
            errors.error(line + 1 + consumed, "option ':{}:' is written twice (first at line {}); keep one".format(
                key, written[key]))
        written.setdefault(key, line + 1 + consumed)
        try:
            options[key] = yaml.safe_load(raw) if raw.strip() else True
        except (yaml.YAMLError, RecursionError):  # a value nested thousands deep exhausts PyYAML's recursion
            errors.error(line + 1 + consumed, "option ':{}:' has a value that is not valid YAML: {}".format(
                key, raw if len(raw) <= 80 else raw[:80] + "…"))
        consumed += 1
    if consumed and consumed < len(body_lines) and not body_lines[consumed].strip():
        consumed += 1  # one blank line may separate options from the body
    _check_stray_option(body_lines, consumed, line, errors)
    body = "".join(body_lines[consumed:])
    return Directive(name=name, argument=argument, options=options, body=body,
                     line=line, body_line=line + 1 + consumed, token=token)
