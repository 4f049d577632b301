"""The math font the site ships (site/fonts/course-math.woff): an OpenType MATH table, every character the lessons'
formulas show, and brackets that stretch in Chromium on a machine with no math font of its own."""

import os
import struct
import subprocess
import zlib

import pytest

from coursebuild.mathfont import characters, shown
from coursebuild.mathml import to_mathml
from support import CHROMIUM_FLAGS, ROOT, SHORT_BRACKETS, chromium_path, serve_built_site

FONT = ROOT / "site" / "fonts" / "course-math.woff"
SOURCE = ROOT / "node_modules" / "@fontsource" / "noto-sans-math" / "files" / "noto-sans-math-latin-400-normal.woff"
LESSON = "003-odna-holova"


def woff_tables(path):
    """{tag: bytes} of a WOFF 1.0 file, each table inflated."""
    data = path.read_bytes()
    assert data[:4] == b"wOFF", "{} is not WOFF".format(path)
    count = struct.unpack(">H", data[12:14])[0]
    tables = {}
    for index in range(count):
        tag, offset, length, original, _ = struct.unpack(">4sIIII", data[44 + 20 * index:64 + 20 * index])
        raw = data[offset:offset + length]
        tables[tag.decode("ascii")] = zlib.decompress(raw) if length < original else raw
    return tables


def mapped_characters(cmap):
    """Every code point a cmap table maps through its format 12 subtable (the one for characters past U+FFFF)."""
    count = struct.unpack(">H", cmap[2:4])[0]
    for index in range(count):
        offset = struct.unpack(">I", cmap[8 + 8 * index:12 + 8 * index])[0]
        if struct.unpack(">H", cmap[offset:offset + 2])[0] == 12:
            groups = struct.unpack(">I", cmap[offset + 12:offset + 16])[0]
            codes = set()
            for group in range(groups):
                start, end, _ = struct.unpack(">III", cmap[offset + 16 + 12 * group:offset + 28 + 12 * group])
                codes.update(range(start, end + 1))
            return codes
    raise AssertionError("the font has no format 12 character map")


def test_the_shipped_font_has_a_math_table_and_every_character_of_the_formulas_that_the_full_font_has():
    tables = woff_tables(FONT)
    assert "MATH" in tables and len(tables["MATH"]) > 1000  # the size variants and assemblies live there
    mapped = mapped_characters(tables["cmap"])
    full = mapped_characters(woff_tables(SOURCE)["cmap"])  # what it lacks (accented letters) falls back anyway
    assert len(mapped) < len(full)
    missing = sorted(char for char in characters(ROOT / "lessons") if ord(char) in full and ord(char) not in mapped)
    assert missing == [], "formulas show {} , which site/fonts/course-math.woff lacks: run " \
                          "tools/subset_math_font.py".format(" ".join(missing))


def test_a_single_letter_variable_counts_in_its_italic_form():
    assert shown(to_mathml("x + \\alpha", False)) >= {"x", "\U0001D465", "+", "\u03b1", "\U0001D6FC"}


NO_MATH_FONTS = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <selectfont><rejectfont>{}</rejectfont></selectfont>
</fontconfig>
"""


@pytest.fixture(scope="module")
def math_site(tmp_path_factory):
    lessons = tmp_path_factory.mktemp("math-lessons")
    (lessons / LESSON).symlink_to(ROOT / "lessons" / LESSON)
    yield from serve_built_site(lessons, tmp_path_factory.mktemp("math") / "_site")


@pytest.fixture(scope="module")
def bare_chromium(tmp_path_factory, playwright_session):
    """Chromium on a fontconfig that hides every math font of this machine: a bare Linux, as far as math goes."""
    listed = subprocess.run(["fc-list", ":", "family", "file"], capture_output=True, text=True, check=True).stdout
    files = [line.split(":")[0] for line in listed.splitlines() if "math" in line.lower()]
    config = tmp_path_factory.mktemp("fontconfig") / "fonts.conf"
    config.write_text(NO_MATH_FONTS.format("".join("<glob>{}</glob>".format(name) for name in files)),
                      encoding="utf-8")
    env = dict(os.environ, FONTCONFIG_FILE=str(config))
    still = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True, check=True, env=env).stdout
    assert "math" not in still.lower(), still  # the machine now has no math font
    browser = playwright_session.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS, env=env)
    yield browser
    browser.close()


def brackets(browser, server, block_font=False):
    page = browser.new_page()
    if block_font:
        page.route("**/course-math.woff", lambda route: route.abort())
    page.goto(server.url(LESSON + "/index.html"))
    page.evaluate("document.querySelectorAll('main details').forEach((details) => { details.open = true; })")
    page.wait_for_function("document.fonts.status === 'loaded'")
    measured, short = page.evaluate("() => {" + SHORT_BRACKETS + "}")
    loaded = page.evaluate("[...document.fonts].some((f) => f.family.includes('Course Math') && f.status === 'loaded')")
    page.close()
    return measured, short, loaded


def test_brackets_stretch_with_no_math_font_on_the_machine(bare_chromium, math_site):
    measured, short, loaded = brackets(bare_chromium, math_site)
    assert measured > 0 and loaded
    assert short == []


def test_without_the_shipped_font_the_same_brackets_stay_short(bare_chromium, math_site):
    measured, short, loaded = brackets(bare_chromium, math_site, block_font=True)
    assert measured > 0 and not loaded
    assert short != []  # what the shipped font mends: the test above could fail
