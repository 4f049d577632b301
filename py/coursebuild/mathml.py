"""LaTeX math to MathML at build time, so pages need no math JavaScript."""

import html

from latex2mathml.converter import convert

from .tokens import children_with_lines

MATH_TOKENS = ("math_inline", "math_block", "math_inline_double", "math_block_label")


def to_mathml(latex, display):
    """Convert one formula; raises ValueError with a readable reason when it cannot."""
    depth = 0
    for index, char in enumerate(latex):
        escaped = index > 0 and latex[index - 1] == "\\"
        if char == "{" and not escaped:
            depth += 1
        elif char == "}" and not escaped:
            depth -= 1
            if depth < 0:
                break
    if depth != 0:
        raise ValueError("the formula ${}$ has unbalanced braces".format(latex.strip()))
    try:
        return convert(latex.strip(), display="block" if display else "inline")
    except Exception as error:  # latex2mathml raises many types; all mean "cannot convert"
        reason = str(error) or type(error).__name__
        raise ValueError("cannot convert the formula ${}$ to MathML ({})".format(latex.strip(), reason)) from error


def render(content, options):
    """markdown-it renderer hook for the dollarmath plugin."""
    display = options.get("display_mode", False)
    try:
        return to_mathml(content, display)
    except ValueError:
        # check() has already reported it with its line; keep the page readable meanwhile.
        return '<code class="math-error">{}</code>'.format(html.escape(content))


def check(tokens, errors):
    """Report every formula that cannot be converted, with its line."""
    for token in tokens:
        if token.type in MATH_TOKENS:
            _check_one(token.content, token.type != "math_inline", token.map[0] + 1 if token.map else None, errors)
        for child, line in children_with_lines(token):
            if child.type in MATH_TOKENS:
                _check_one(child.content, child.type != "math_inline", line, errors)


def _check_one(latex, display, line, errors):
    """Report one formula that cannot be converted."""
    try:
        to_mathml(latex, display)
    except ValueError as error:
        errors.error(line, "{}; fix the LaTeX or write it as code".format(error))
