"""Numbers written the way a lesson's language writes them: the one formatter of everything the course writes.

    number(0.5, ".2f")           '0,50' in a Spanish or Ukrainian lesson, '0.50' in an English one
    number(198272)               '198.272' (es), '198 272' (uk, with a no-break space), '198,272' (en)
    number([0.5, 0.25], ".2f")   '[0,50; 0,25]': a list, tuple or array, items joined by '; '

The language is the one passed, else the current lesson's (set_language: the runner sets it from
the page's init request, the build from the lesson's front matter). In a Jupyter kernel, where nobody
sets it, it is the language of the notebook the kernel serves (notebook_language), so a lesson opened
in Jupyter prints as its page does. Each language's marks are read
from site/i18n/<language>.json (`decimal_separator`, and `first_grouped_number`, the smallest number
it writes grouped); in the browser the build ships the same table as course/number_formats.json.

Runs on Python 3.8 and later.
"""

import json
import os
import re
from pathlib import Path

_LANGUAGE = [None]  # None until set_language(): then the notebook's language, else English
_FORMATS = {}
EDITION_FILE = re.compile(r"lesson\.([A-Za-z-]+)\.md")


def set_language(language):
    """Make `language` the one number() writes in when none is passed."""
    _LANGUAGE[0] = str(language)


def current_language():
    """The language number() writes in when none is passed."""
    if _LANGUAGE[0] is None:
        _LANGUAGE[0] = notebook_language(os.environ.get("JPY_SESSION_NAME", "")) or "en"
    return _LANGUAGE[0]


def notebook_language(path):
    """The language of the lesson file a Jupyter kernel serves (Jupyter names it in $JPY_SESSION_NAME): the one
    in an edition's name, lesson.<language>.md, or lesson.md's `language:`; None for anything else."""
    name = Path(path).name
    edition = EDITION_FILE.fullmatch(name)
    if edition:
        return edition.group(1)
    if name != "lesson.md":
        return None
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    front = lines[1:lines.index("---", 1)] if lines[:1] == ["---"] and "---" in lines[1:] else []
    return next((line.split(":", 1)[1].strip().strip("'\"") for line in front if line.startswith("language:")), None)


def number(value, spec="", language=None):
    """A number, or a list or array of numbers, as text in the language's digits."""
    language = language or current_language()
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return "[" + "; ".join(number(item, spec, language) for item in value) + "]"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return format(value, spec) if spec else str(value)
    if spec:
        text = format(value, spec)
    else:
        text = format(value, "d") if isinstance(value, int) else repr(value)
    if text.startswith("-") and not any(digit in text for digit in "123456789"):
        text = text[1:]  # a value that rounds to zero is written without a sign
    return _localize(text, language)


def _localize(text, language):
    """Python's digits ('-1048576.5') with the language's decimal mark and thousands grouping."""
    decimal, thousands, group_from = formats()[language]
    sign = "-" if text.startswith("-") else ""
    whole, dot, fraction = text.lstrip("-").partition(".")
    if whole.isdigit() and len(whole) >= group_from:
        groups = []
        while whole:
            groups.insert(0, whole[-3:])
            whole = whole[:-3]
        whole = thousands.join(groups)
    return sign + whole + (decimal + fraction if dot else "")


def formats():
    """{language: (decimal mark, thousands separator, digits from which numbers are grouped)}."""
    if not _FORMATS:
        shipped = Path(__file__).with_name("number_formats.json")
        if shipped.exists():
            table = json.loads(shipped.read_text(encoding="utf-8"))
        else:
            table = read_formats(Path(__file__).resolve().parents[2] / "site" / "i18n")
        _FORMATS.update({language: tuple(entry) for language, entry in table.items()})
    return _FORMATS


def read_formats(folder):
    """The number format of every site/i18n/<language>.json in `folder`; raises ValueError on a malformed one."""
    table = {}
    for path in sorted(Path(folder).glob("*.json")):
        strings = json.loads(path.read_text(encoding="utf-8"))
        example = strings["first_grouped_number"]
        marks = [char for char in example if not char.isdigit()]
        if not marks or not example[:1].isdigit() or set(example) - set(marks) != {"0", "1"}:
            raise ValueError("{}: first_grouped_number '{}' must be the smallest number the language groups, "
                             "written with its separator, such as '10.000'".format(path, example))
        table[path.stem] = [strings["decimal_separator"], marks[0], sum(char.isdigit() for char in example)]
    return table
