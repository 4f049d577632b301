"""LaTeX math to MathML at build time, so pages need no math JavaScript.

The converter's tree is checked against a MathML whitelist (elements and
attributes) and serialised with its text escaped, so a formula can write
nothing but MathML: `\\text{d<d_model}` is text, and `\\href`, `\\style` or
`\\class` are refused rather than written as live attributes.
"""

import html
import re
from xml.etree.ElementTree import tostring

from latex2mathml.converter import convert_to_element

from .tokens import children_with_lines

MATH_TOKENS = ("math_inline", "math_block", "math_inline_double", "math_block_label")
ELEMENTS = frozenset((
    "math", "menclose", "merror", "mfrac", "mi", "mmultiscripts", "mn", "mo", "mover", "mpadded", "mphantom",
    "mprescripts", "mroot", "mrow", "ms", "mspace", "msqrt", "mstyle", "msub", "msubsup", "msup", "mtable", "mtd",
    "mtext", "mtr", "munder", "munderover", "none"))
ATTRIBUTES = frozenset((
    "accent", "accentunder", "align", "close", "columnalign", "columnlines", "columnspacing", "columnspan", "depth",
    "display", "displaystyle", "fence", "form", "frame", "height", "largeop", "linebreak", "linethickness", "lspace",
    "mathbackground", "mathcolor", "mathsize", "mathvariant", "maxsize", "minsize", "movablelimits", "notation",
    "open", "rowalign", "rowlines", "rowspacing", "rowspan", "rspace", "scriptlevel", "separator", "separators",
    "stretchy", "symmetric", "voffset", "width", "xmlns"))
# The converter writes characters as "&#x...;" text and expects them unescaped; only those are given back.
CHARACTER = re.compile(r"&amp;(#x[0-9A-Fa-f]+;)")


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
        tree = convert_to_element(latex.strip(), display="block" if display else "inline")
    except Exception as error:  # latex2mathml raises many types; all mean "cannot convert"
        reason = str(error) or type(error).__name__
        raise ValueError("cannot convert the formula ${}$ to MathML ({})".format(latex.strip(), reason)) from error
    _check_whitelist(tree, latex.strip())
    _replace_named_spaces(tree)
    return CHARACTER.sub(r"&\1", tostring(tree, encoding="unicode"))


# MathML Core has no named spaces: Firefox warns that "negativethinmathspace" (from \!) is deprecated, and
# Chromium ignores it. Lengths in em mean the same everywhere.
NAMED_SPACES = {"negativeveryverythinmathspace": "-0.0556em", "negativeverythinmathspace": "-0.1111em",
                "negativethinmathspace": "-0.1667em", "negativemediummathspace": "-0.2222em",
                "negativethickmathspace": "-0.2778em", "negativeverythickmathspace": "-0.3333em",
                "veryverythinmathspace": "0.0556em", "verythinmathspace": "0.1111em", "thinmathspace": "0.1667em",
                "mediummathspace": "0.2222em", "thickmathspace": "0.2778em", "verythickmathspace": "0.3333em"}


def _replace_named_spaces(tree):
    """Write every named MathML space as the length it stands for."""
    for element in tree.iter():
        for name in ("width", "lspace", "rspace"):
            if element.attrib.get(name) in NAMED_SPACES:
                element.attrib[name] = NAMED_SPACES[element.attrib[name]]


def _check_whitelist(tree, latex):
    """Refuse a formula whose MathML holds an element or attribute that pages do not allow."""
    for element in tree.iter():
        if element.tag not in ELEMENTS:
            raise ValueError("the formula ${}$ makes a <{}> element, which lesson math may not "
                             "contain".format(latex, element.tag))
        for name in element.attrib:
            if name not in ATTRIBUTES:
                raise ValueError("the formula ${}$ sets the attribute '{}' (from \\href, \\style, \\class or "
                                 "the like), which lesson math may not; remove that command".format(latex, name))


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
