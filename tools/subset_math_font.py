"""Cut the npm package @fontsource/noto-sans-math down to what the lessons' formulas show: site/fonts/course-math.woff.

    python tools/subset_math_font.py        (needs fontTools: pip install fonttools, in any environment)

Run it when tests/test_math_font.py says a formula shows a character the shipped font lacks. It keeps the
font's MATH table and, through it, the larger and assembled forms of every bracket, root and sum kept, so they
still stretch. WOFF (zlib), not WOFF2: the test reads its character map with Python's standard library alone.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))

from coursebuild.mathfont import characters  # noqa: E402

SOURCE = ROOT / "node_modules" / "@fontsource" / "noto-sans-math" / "files" / "noto-sans-math-latin-400-normal.woff"
TARGET = ROOT / "site" / "fonts" / "course-math.woff"


def main():
    """Subset SOURCE to the lessons' characters and write TARGET; say how many bytes each has."""
    from fontTools import subset
    chars = characters(ROOT / "lessons")
    options = subset.Options()
    options.layout_features = ["*"]  # the MATH table's size variants are reached through it, and ssty, dtls
    options.flavor = "woff"
    options.name_IDs = ["*"]  # the copyright and licence names stay with the font
    font = subset.load_font(str(SOURCE), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(char) for char in chars))
    subsetter.subset(font)
    subset.save_font(font, str(TARGET), options)
    print("{}: {} characters, {} bytes (from {} bytes)".format(
        TARGET.relative_to(ROOT), len(chars), TARGET.stat().st_size, SOURCE.stat().st_size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
