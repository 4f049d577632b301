"""Syntax highlighting at build time with Pygments (CSS classes, no inline styles)."""

from pygments import highlight as _highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer, TextLexer, get_lexer_by_name
from pygments.util import ClassNotFound

_FORMATTER = HtmlFormatter(nowrap=True)


def highlight(code, language="python"):
    """HTML for the inside of a <code> element; its text content is exactly `code`."""
    try:
        lexer = PythonLexer() if language in ("python", "ipython3", "py") else get_lexer_by_name(language)
    except ClassNotFound:
        lexer = TextLexer()
    lexer.stripnl = False
    lexer.ensurenl = False
    return _highlight(code, lexer, _FORMATTER)
