"""Lesson 000, several heads: its explorable quiz's key recomputed from the maps, its claim cells as built."""

import html
import re
import shutil

import pytest
from varias_cabezas.explorables.rule_heads import WORDS, maps, pulled

from course import numbers
from course.exercise import grade
from coursebuild.lesson import read_lesson
from support import ROOT, build_site

SLUG = "000-varias-cabezas"
FOLDER = ROOT / "lessons" / SLUG
LESSON = read_lesson(FOLDER / "lesson.md")[0]
HEAD_3 = 2


def quiz(key):
    """The lesson's quiz with this ':id:'."""
    return next(found for found in LESSON.quizzes if found.key == key)


def italic_words(body):
    """The words a parsed Markdown body sets in italics (*ratón*), in order."""
    source = " ".join(token.content for token in body.tokens if token.type == "inline")
    return re.findall(r"\*(\w+)\*", source)


def test_the_explorable_quiz_marks_right_the_words_head_3_pulls_gatos_toward():
    question = quiz("cabeza3-gatos")
    computed = pulled(maps()[HEAD_3][WORDS.index("gatos")])
    assert computed is not None
    marked = [italic_words(question.options[index]) for index in question.correct]
    assert marked == [computed]
    others = [italic_words(option) for index, option in enumerate(question.options) if index not in question.correct]
    assert computed not in others


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    lessons = tmp_path_factory.mktemp("lessons")
    shutil.copytree(FOLDER, lessons / SLUG)
    site = build_site(lessons, tmp_path_factory.mktemp("site"))
    return (site / SLUG / "index.html").read_text()


def output(page, key):
    """The build-time output of the cell with this ':id:', as plain text."""
    number = next(cell.number for cell in LESSON.cells if cell.key == key)
    section = re.search(r'<section class="cell" id="cell-{}".*?</section>'.format(number), page, re.S).group(0)
    return html.unescape(re.sub(r"<[^>]+>", "", section.split('class="cell-output"', 1)[1]))


def test_swapping_two_heads_with_their_rows_of_w_o_keeps_the_output_and_without_them_changes_it(page):
    printed = output(page, "intercambio-promedio")
    with_rows, without_rows = re.findall(r"la salida es la de la primera celda: (\w+) \| mayor diferencia: (\S+)",
                                         printed)
    assert with_rows == ("True", "0,000000")
    assert without_rows[0] == "False" and float(without_rows[1].replace(",", ".")) > 0.1


def test_the_stacked_copies_of_i_over_h_give_the_average_of_the_heads(page):
    assert "da el promedio de las cabezas: True" in output(page, "intercambio-promedio")


def test_the_cell_that_answers_a_quiz_says_so():
    checks = {cell.key: cell.checks for cell in LESSON.cells if cell.checks}
    assert checks == {"intercambio-promedio": ("promedio",), "cabezas-iguales": ("cabezas-iguales",)}


def test_every_link_to_another_lesson_names_a_lesson_of_the_course():
    text = (FOLDER / "lesson.md").read_text(encoding="utf-8")
    linked = re.findall(r"\]\(\.\./([^/)#]+)/?\)", text)
    assert linked and all((ROOT / "lessons" / slug / "lesson.md").exists() for slug in linked), linked
    assert not re.search(r"lecci[oó]n (anterior|siguiente|posterior)|lecci[oó]n sobre", text, re.IGNORECASE)


def test_the_checker_writes_its_numbers_the_way_spanish_writes_them():
    code = (FOLDER / "exercises" / "multi_head" / "wrong" / "no_scaling.py").read_text(encoding="utf-8")
    previous = numbers.current_language()
    numbers.set_language("es")
    try:
        messages = [result["message"] for result in grade(code, "varias_cabezas.checkers.multi_head")["results"]]
    finally:
        numbers.set_language(previous)
    difference = next(re.search(r"difiere hasta en (\S+)\)", message) for message in messages if "difiere" in message)
    assert "," in difference.group(1) and "." not in difference.group(1)
