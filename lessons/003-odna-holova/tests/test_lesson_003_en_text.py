"""Lesson 003's English text (lesson.en.md): all of it is English, and it links to English pages and files."""

import re

from support import ROOT

LESSONS = ROOT / "lessons"
FOLDER = LESSONS / "003-odna-holova"
TEXT = (FOLDER / "lesson.en.md").read_text(encoding="utf-8")
CYRILLIC = re.compile("[\u0400-\u04ff]")


def test_no_ukrainian_is_left_in_the_english_edition():
    left = [(number, line) for number, line in enumerate(TEXT.splitlines(), 1) if CYRILLIC.search(line)]
    assert not left, left


def test_links_to_other_lessons_open_their_english_editions():
    links = re.findall(r"\]\((\.\.[^)]*)\)", TEXT)
    assert links, "the edition links to lessons 000 and 004"
    for link in links:
        found = re.fullmatch(r"\.\./\.\./([^/]+)/(en/)?", link)
        assert found, "{} is not the English page of a lesson (../../<folder>/en/, or ../../<folder>/)".format(link)
        if found.group(2):
            assert (LESSONS / found.group(1) / "lesson.en.md").is_file(), "{} has no English edition".format(link)
        else:  # a lesson written in English first has its English page at its folder
            primary = (LESSONS / found.group(1) / "lesson.md").read_text(encoding="utf-8")
            assert re.search(r"^language: en$", primary, re.M), "{} is not written in English".format(link)


def test_exercises_use_the_english_exercise_files():
    named = re.findall(r"^:(starter|solution|wrong): (\S+)$", TEXT, re.M)
    assert len(named) == 6, named  # two exercises, three files each
    for option, path in named:  # the learner reads English code; the known-wrong solutions are lesson.md's
        assert path.startswith("exercises/" if option == "wrong" else "exercises.en/"), path
        assert (FOLDER / path).exists(), path
