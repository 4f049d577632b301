"""Lessons mutated the way authors err: every mutation gives file:line errors or a faithful page, never a traceback.

The base is the fixture lesson with one block of every kind. Each mutation is one
mistake (a misspelled directive, option or key, a bad encoding, a nested
directive, a number a page cannot hold); the build must either refuse it with
messages that name a file and line, or build a page that still holds every
piece of text the source has.
"""

import re
import shutil

import pytest

from coursebuild import cli
from support import ROOT

BASE = ROOT / "tests" / "fixtures" / "blocks" / "lessons" / "01-glue-in-blocks"
SOURCE = (BASE / "lesson.md").read_text(encoding="utf-8")
# Text from every block of the base lesson; a page built from a mutation must still show each.
MARKERS = ("Prose quotes", "a café", "The layer has", "Are there", "Yes,", "No,", "Four matrices make",
           "Write a layer with", "Count", "The caption quotes", "A source", "How many parameters, again?",
           "Count them once more.", "a quarter?", "It is one over four.",
           "Write the layer of")
WHERE = re.compile(r"^\S+?\.(md|py)(:\d+)?: ")
FENCED_NAMES = re.compile(r"^(`{3,}|:{3,})\{([a-z-]+)\}", re.M)
OPTION_LINES = re.compile(r"^:([a-z]+):", re.M)
QUIZ_KEYS = re.compile(r"^(\s*-?\s*)(question|options|text|correct|explanation|answer|tolerance):", re.M)


def typos(word):
    """The misspellings an author makes: a letter dropped, two swapped, one doubled, a space or _ for a hyphen."""
    found = {word[:1] + word[2:], word[:-1], word[1] + word[0] + word[2:], word[:2] + word[2] + word[2:],
             word.replace("-", " "), word.replace("-", "_"), word.capitalize()}
    found.discard(word)
    return sorted(found)


def replace_nth(text, pattern, index, replacement):
    """`text` with the index-th match of `pattern` replaced by replacement(match)."""
    matches = list(pattern.finditer(text))
    match = matches[index]
    return text[:match.start()] + replacement(match) + text[match.end():]


def mutations():
    """(name, lesson bytes) for each mistake."""
    yield "latin-1", SOURCE.encode("latin-1")
    yield "utf-16", SOURCE.encode("utf-16")
    yield "a stray byte", SOURCE.replace("Count them", "Count \udcff them").encode("utf-8", "surrogateescape")
    yield "a byte-order mark", b"\xef\xbb\xbf" + SOURCE.encode("utf-8")
    for index, match in enumerate(FENCED_NAMES.finditer(SOURCE)):
        name = "{}#{}".format(match.group(2), index)
        for typo in typos(match.group(2)):
            yield "directive {} as {!r}".format(name, typo), replace_nth(
                SOURCE, FENCED_NAMES, index, lambda m, typo=typo: m.group(1) + "{" + typo + "}").encode()
        yield "directive {} without braces".format(name), replace_nth(
            SOURCE, FENCED_NAMES, index, lambda m: m.group(1) + m.group(2)).encode()
        yield "directive {} with a space".format(name), replace_nth(
            SOURCE, FENCED_NAMES, index, lambda m: m.group(1) + " " + m.group(2)).encode()
        yield "directive {} unclosed brace".format(name), replace_nth(
            SOURCE, FENCED_NAMES, index, lambda m: m.group(1) + "{" + m.group(2)).encode()
    for index, match in enumerate(OPTION_LINES.finditer(SOURCE)):
        for typo in typos(match.group(1))[:3]:
            yield "option {} as {!r}".format(match.group(1), typo), replace_nth(
                SOURCE, OPTION_LINES, index, lambda m, typo=typo: ":" + typo + ":").encode()
        yield "option {} after a blank line".format(match.group(1)), replace_nth(
            SOURCE, OPTION_LINES, index, lambda m: "\n" + m.group(0)).encode()
    for index, match in enumerate(QUIZ_KEYS.finditer(SOURCE)):
        for typo in typos(match.group(2))[:3]:
            yield "quiz key {}#{} as {!r}".format(match.group(2), index, typo), replace_nth(
                SOURCE, QUIZ_KEYS, index, lambda m, typo=typo: m.group(1) + typo + ":").encode()
    nested = "\n```{code-cell} ipython3\nprint(1)\n```\n"
    yield "a cell inside an answer", SOURCE.replace("parameters and $d_k = 64$.\n", "parameters.\n" + nested).encode()
    yield "an answer inside an exercise", SOURCE.replace("Write a layer with", ":::{answer}\nInner.\n:::\n\n"
                                                         "Write a layer with").encode()
    yield "a misspelled hint", SOURCE.replace(":::{hint}", ":::{hnt}").encode()
    yield "a cell inside a caption", SOURCE.replace("The caption quotes", "````{code-cell} ipython3\nx = 1\n````\n"
                                                    "The caption quotes").encode()
    for number in (".inf", "-.inf", ".nan", "1e999"):
        yield "answer " + number, SOURCE.replace("answer: 1048576", "answer: " + number).encode()
        yield "tolerance " + number, SOURCE.replace("tolerance: 0.5", "tolerance: " + number).encode()
    yield "an unknown glue name in a hint", SOURCE.replace("`ratio:.2f` of the", "`ratoi:.2f` of the").encode()
    yield "math that cannot convert in an option", SOURCE.replace("Yes, {glue}", "Yes, $\\frac{1$ {glue}").encode()


MUTATIONS = dict(mutations())


def build(tmp_path, source):
    """Build the base lesson's folder with `source` as its lesson.md; return (status, stderr lines)."""
    folder = tmp_path / "lessons" / BASE.name
    shutil.copytree(BASE, folder)
    (folder / "lesson.md").write_bytes(source)
    return cli.main(["--lessons", str(tmp_path / "lessons"), "--out", str(tmp_path / "_site"), "build"])


def faithful(tmp_path):
    """The built page still shows every piece of the source's text, with no directive or role left raw."""
    page = (tmp_path / "_site" / BASE.name / "index.html").read_text(encoding="utf-8").replace("&#x27;", "'")
    missing = [marker for marker in MARKERS if marker not in page]
    assert not missing, "built, but the page lost {}".format(missing)
    assert "{glue}" not in page and "```" not in page and ":::" not in page


def test_the_unmutated_lesson_builds_a_faithful_page(tmp_path, capsys):
    assert build(tmp_path, SOURCE.encode()) == 0, capsys.readouterr().err
    faithful(tmp_path)


@pytest.mark.parametrize("case", sorted(MUTATIONS))
def test_a_mutated_lesson_gives_file_line_errors_or_a_faithful_page(tmp_path, capsys, case):
    status = build(tmp_path, MUTATIONS[case])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if status == 0:
        faithful(tmp_path)
        return
    assert status == 1
    lines = [line.replace(str(tmp_path) + "/", "") for line in err.splitlines()[:-1]]
    assert lines and all(WHERE.match(line) for line in lines), err
    assert any(re.match(r"^\S+:\d+: ", line) for line in lines), err


def test_the_mutations_cover_every_family_of_mistake():
    names = " ".join(MUTATIONS)
    for family in ("latin-1", "directive quiz#", "without braces", "option checker as", "after a blank line",
                   "quiz key correct#", "quiz key explanation#", "inside an answer", "answer .nan", "tolerance .inf"):
        assert family in names, family
    assert len(MUTATIONS) > 100
