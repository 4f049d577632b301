"""The languages of the course and how each writes numbers, read from the one place they are written.

Every language is one file, site/i18n/<language>.json, holding its UI strings
and its number format: `decimal_separator`, and `first_grouped_number`, the
smallest number the language writes with a thousands separator (English
"1,000"; Spanish "10.000", since it writes 2048 ungrouped; Ukrainian
"10 000" with a no-break space). The page reads the same strings.
"""

import json
from dataclasses import dataclass
from pathlib import Path

from .errors import LessonError

I18N = Path(__file__).resolve().parents[2] / "site" / "i18n"


@dataclass(frozen=True)
class NumberFormat:
    """How one language writes a number: decimal mark, thousands separator, and from how many digits it groups."""

    decimal: str
    thousands: str
    group_from: int


def languages(folder=I18N):
    """The course's languages: one per strings file."""
    return tuple(sorted(path.stem for path in Path(folder).glob("*.json")))


def strings(language, folder=I18N):
    """The UI strings of one language."""
    return json.loads((Path(folder) / (language + ".json")).read_text(encoding="utf-8"))


def number_format(language):
    """The number format of one language."""
    table = strings(language)
    example = table["first_grouped_number"]
    separators = [char for char in example if not char.isdigit()]
    if not separators or not example[:1].isdigit() or set(example) - set(separators) != {"0", "1"}:
        raise LessonError(I18N / (language + ".json"), None, "first_grouped_number '{}' must be the smallest "
                          "number the language groups, written with its separator, such as '10.000'".format(example))
    return NumberFormat(decimal=table["decimal_separator"], thousands=separators[0],
                        group_from=sum(char.isdigit() for char in example))
