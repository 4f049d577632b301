"""The languages of the course, read from the one place they are written.

Every language is one file, site/i18n/<language>.json, holding its UI strings
and its number format: `decimal_separator`, and `first_grouped_number`, the
smallest number the language writes with a thousands separator (English
"1,000"; Spanish "10.000", since it writes 2048 ungrouped; Ukrainian
"10 000" with a no-break space). course.numbers writes numbers from them;
the page reads the same strings.
"""

import json
from pathlib import Path

from course import numbers

from .errors import LessonError

I18N = Path(__file__).resolve().parents[2] / "site" / "i18n"


def languages(folder=I18N):
    """The course's languages: one per strings file."""
    return tuple(sorted(path.stem for path in Path(folder).glob("*.json")))


def strings(language, folder=I18N):
    """The UI strings of one language."""
    return json.loads((Path(folder) / (language + ".json")).read_text(encoding="utf-8"))


def number_formats(folder=I18N):
    """Every language's number format (course.numbers.read_formats), a malformed one reported as a LessonError."""
    try:
        return numbers.read_formats(folder)
    except ValueError as error:
        path, _, message = str(error).partition(": ")
        raise LessonError(Path(path), None, message) from error
