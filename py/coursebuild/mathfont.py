"""The characters the lessons' formulas show, for the math font the site ships (site/fonts/, style.css).

A single-letter <mi> is drawn in its mathematical italic form (MathML's auto italic: U+1D434 and on), so those
count as well as the characters written. tools/subset_math_font.py cuts the font down to these, and a test
checks that the shipped font has every one of them.
"""

import html
import re
from pathlib import Path

from .mathml import MATH_TOKENS, to_mathml
from .tokens import children_with_lines

# What every formula may use whatever the lessons say today: ASCII, Greek, and the italic forms of Latin and
# Greek letters. (Noto Sans Math has no accented Latin letters: a \text{} with one draws it in a text font.)
BASE = (range(0x20, 0x7F), range(0x391, 0x3CA), range(0x1D434, 0x1D468), range(0x1D6E2, 0x1D71C),
        (0x221A, 0x00AF, 0x203E))  # what the engine draws without a character in the markup: <msqrt>'s radical, bars
ITALIC_EXCEPTIONS = {"h": 0x210E}  # the italic h sits in Letterlike Symbols
TEXT = re.compile(r"<(m[a-z]+)([^>]*)>([^<]*)</\1>")


def italic(char):
    """The mathematical italic form of a Latin or Greek letter, or None."""
    if char in ITALIC_EXCEPTIONS:
        return chr(ITALIC_EXCEPTIONS[char])
    if "A" <= char <= "Z":
        return chr(0x1D434 + ord(char) - ord("A"))
    if "a" <= char <= "z":
        return chr(0x1D44E + ord(char) - ord("a"))
    if "\u0391" <= char <= "\u03a9":
        return chr(0x1D6E2 + ord(char) - 0x391)
    if "\u03b1" <= char <= "\u03c9":
        return chr(0x1D6FC + ord(char) - 0x3B1)
    return None


def shown(mathml):
    """The characters one formula's MathML shows."""
    chars = set()
    for element, attributes, text in TEXT.findall(mathml):
        text = html.unescape(text)
        chars |= set(text)
        if element == "mi" and len(text) == 1 and "mathvariant" not in attributes and italic(text):
            chars.add(italic(text))
    return chars - {" ", "\n"}


def formulas(tokens):
    """(latex, display) of every formula among a lesson's tokens."""
    for token in tokens:
        if token.type in MATH_TOKENS:
            yield token.content, token.type != "math_inline"
        for child, _ in children_with_lines(token):
            if child.type in MATH_TOKENS:
                yield child.content, child.type != "math_inline"


def lesson_characters(lessons_dir):
    """Every character the formulas of every lesson file under `lessons_dir` show (formulas that fail are skipped:
    the build reports them)."""
    from .lesson import read_lesson
    chars = set()
    for path in sorted(Path(lessons_dir).glob("*/lesson*.md")):
        lesson, _ = read_lesson(path)
        for body in [lesson.tokens] + [body.tokens for body in lesson.bodies]:
            for latex, display in formulas(body):
                try:
                    chars |= shown(to_mathml(latex, display))
                except ValueError:
                    continue
    return chars


def characters(lessons_dir):
    """What the shipped font must hold: the lessons' characters and BASE."""
    return lesson_characters(lessons_dir) | {chr(code) for block in BASE for code in block}
