"""The languages of the course and how each writes numbers, read from the one place they are written.

Every language is one file, site/i18n/<language>.json, holding its UI strings
and its number format (`decimal_separator`, `thousands_separator`, and
`thousands_from_digits`: the shortest whole part that is grouped, 4 in English's
1,024, 5 in Spanish's 1024 and 10.240). The page reads the same strings.
"""

import json
from dataclasses import dataclass
from pathlib import Path

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
    return NumberFormat(decimal=table["decimal_separator"], thousands=table["thousands_separator"],
                        group_from=int(table["thousands_from_digits"]))
