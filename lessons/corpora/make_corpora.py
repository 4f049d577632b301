"""Write es.txt, uk.txt and en.txt from the person names in an unpacked Faker wheel (see README.md).

    python lessons/corpora/make_corpora.py /tmp/faker/x

Reads the name lists of Faker's es_ES, uk_UA and en_US person providers as text (nothing of Faker is imported
or run), lower-cases them, and writes one name per line, deduplicated and sorted by code point.
"""

import ast
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LOCALES = {"es": "es_ES", "uk": "uk_UA", "en": "en_US"}
LISTS = ("first_names", "first_names_male", "first_names_female", "last_names", "last_names_common",
         "last_names_male", "last_names_female", "middle_names_male", "middle_names_female")


def names_in(source):
    """Every string in the provider class's name lists (tuples, lists or dicts of name -> weight)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id in LISTS for t in targets) and node.value is not None:
                found |= {n.value for n in ast.walk(node.value)
                          if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return found


def main(argv=None):
    """Write the three corpora from the unpacked wheel named on the command line."""
    wheel = Path((argv or sys.argv[1:])[0])
    for language, locale in LOCALES.items():
        source = (wheel / "faker" / "providers" / "person" / locale / "__init__.py").read_text(encoding="utf-8")
        names = sorted({name.strip().lower() for name in names_in(source) if name.strip()})
        (HERE / "{}.txt".format(language)).write_text("".join(name + "\n" for name in names), encoding="utf-8")
        print("{}.txt: {} names, {} characters".format(language, len(names), sum(len(n) + 1 for n in names)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
