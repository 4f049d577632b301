"""Lesson 005's editions: each has the primary's exercise files, and its checkers' sentences and figure speak its
language."""

import re

import pytest

from course import numbers
from course.exercise import grade
from course.explorables import engine
from coursebuild.lesson import read_lesson
from support import ROOT

FOLDER = ROOT / "lessons" / "005-position-and-block"
PRIMARY = read_lesson(FOLDER / "lesson.md")[0]
EDITIONS = sorted(path.name.split(".")[1] for path in FOLDER.glob("lesson.*.md"))
CHECKERS = {"positional_encoding": "position_and_block.checkers.positional_encoding",
            "layer_norm": "position_and_block.checkers.layer_norm"}
ENGLISH_WORDS = re.compile(r"\b(For|was expected|your function|the table|instead of|output|check that)\b")


def in_language(language, function, *args):
    """function(*args) with course.numbers set to `language`, as the page's runner sets it."""
    numbers.set_language(language)
    try:
        return function(*args)
    finally:
        numbers.set_language("en")


def edition(language):
    """The parsed edition in `language`."""
    return read_lesson(FOLDER / "lesson.{}.md".format(language))[0]


def test_the_lesson_has_its_spanish_and_ukrainian_editions():
    assert EDITIONS == ["es", "uk"]


@pytest.mark.parametrize("language", EDITIONS)
def test_an_edition_has_the_primary_s_exercises_with_the_same_known_mistakes(language):
    exercises = {found.id: found for found in edition(language).exercises}
    for primary in PRIMARY.exercises:
        assert sorted(exercises[primary.id].wrong) == sorted(primary.wrong)
        assert exercises[primary.id].starter != primary.starter  # its comments are in its language


@pytest.mark.parametrize("language", EDITIONS)
def test_an_edition_s_checkers_pass_its_reference_and_reject_each_mistake_in_its_language(language):
    for found in edition(language).exercises:
        assert in_language(language, grade, found.solution, CHECKERS[found.id])["passed"]
        hints = set()
        for name, code in sorted(found.wrong.items()):
            result = in_language(language, grade, code, CHECKERS[found.id])
            message = result["results"][-1]["message"]
            assert not result["passed"] and not ENGLISH_WORDS.search(message), (name, message)
            hints.add(message.split(";", 1)[-1])
        assert len(hints) == len(found.wrong)


@pytest.mark.parametrize("language", EDITIONS)
def test_an_edition_s_figure_speaks_its_language_and_glues_the_same_numbers(language):
    figure = in_language(language, engine.load, "position_and_block.explorables.position_dots")
    english = engine.load("position_and_block.explorables.position_dots")
    assert figure.controls[0].label != english.controls[0].label
    assert figure.glue() == english.glue()
    state = in_language(language, figure.compute, (1, 1, 0))
    assert state["dots"]["x_label"] != english.compute((1, 1, 0))["dots"]["x_label"]


@pytest.mark.parametrize("language", ["en"] + EDITIONS)
def test_a_checker_s_message_indexes_only_names_the_starter_has(language):
    # Issue 53: the odd-width hint said `rates[:d_model // 2]`, a name neither the starter nor the learner's code
    # need have. Whatever a message indexes (`name[...]`) must be a name the learner was given.
    import ast
    for found in (PRIMARY if language == "en" else edition(language)).exercises:
        given = {node.id for node in ast.walk(ast.parse(found.starter)) if isinstance(node, ast.Name)}
        given |= {arg.arg for node in ast.walk(ast.parse(found.starter)) if isinstance(node, ast.arguments)
                  for arg in node.args}
        for name, code in sorted(found.wrong.items()):
            message = in_language(language, grade, code, CHECKERS[found.id])["results"][-1]["message"]
            indexed = set(re.findall(r"(?<![\w.])([A-Za-z_]\w*)\[", message))
            assert indexed <= given, (name, message, indexed - given)
