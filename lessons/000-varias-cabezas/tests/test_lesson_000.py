"""Lesson 000, several heads: its explorable quiz's key recomputed from the maps, its claim cells as built."""

import re

import pytest
from varias_cabezas.explorables.rule_heads import WORDS, maps, pulled

from course.exercise import grade
from coursebuild.lesson import read_lesson
from support import ROOT, assert_quiz_marks_right, build_one_lesson, cell_output, in_language, quiz_of

SLUG = "000-varias-cabezas"
FOLDER = ROOT / "lessons" / SLUG
LESSON = read_lesson(FOLDER / "lesson.md")[0]
HEAD_3 = 2


def test_the_explorable_quiz_marks_right_the_words_head_3_pulls_gatos_toward():
    computed = pulled(maps()[HEAD_3][WORDS.index("gatos")])
    assert computed is not None
    assert_quiz_marks_right(quiz_of(LESSON, "cabeza3-gatos"), computed)


# Each edition's swap-and-average cell: its page, its parsed file, the sentence of its two swaps (the same output?
# the largest difference), its zero and its sentence on the average of the heads.
SWAP_AND_AVERAGE = {
    "es": ("index.html", "lesson.md", r"la salida es la de la primera celda: (\w+) \| mayor diferencia: (\S+)",
           "0,000000", "da el promedio de las cabezas: True"),
    "en": ("en/index.html", "lesson.en.md", r"the output is the first cell's: (\w+) \| largest difference: (\S+)",
           "0.000000", "gives the average of the heads: True"),
    "uk": ("uk/index.html", "lesson.uk.md",
           r"вихід такий, як у першій комірці: (\w+) \| найбільша різниця: (\S+)", "0,000000", "дає середнє голів: True"),
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build_one_lesson(tmp_path_factory, FOLDER)


@pytest.fixture(scope="module")
def page(site):
    return (site / SLUG / "index.html").read_text()


def output(page, key):
    """The build-time output of the cell with this ':id:', as plain text."""
    return cell_output(page, LESSON, key)


def swap_and_average_output(site, language):
    """The printed output of the swap-and-average cell in the edition in `language`, as built."""
    path, source = SWAP_AND_AVERAGE[language][:2]
    return cell_output((site / SLUG / path).read_text(), read_lesson(FOLDER / source)[0], "intercambio-promedio")


@pytest.mark.parametrize("language", sorted(SWAP_AND_AVERAGE))
def test_swapping_two_heads_with_their_rows_of_w_o_keeps_the_output_and_without_them_changes_it(site, language):
    swaps, zero = SWAP_AND_AVERAGE[language][2:4]
    with_rows, without_rows = re.findall(swaps, swap_and_average_output(site, language))
    assert with_rows == ("True", zero)
    assert without_rows[0] == "False" and float(without_rows[1].replace(",", ".")) > 0.1


@pytest.mark.parametrize("language", sorted(SWAP_AND_AVERAGE))
def test_the_stacked_copies_of_i_over_h_give_the_average_of_the_heads(site, language):
    assert SWAP_AND_AVERAGE[language][4] in swap_and_average_output(site, language)


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
    graded = in_language("es", grade, code, "varias_cabezas.checkers.multi_head")
    messages = [result["message"] for result in graded["results"]]
    difference = next(re.search(r"difiere hasta en (\S+)\)", message) for message in messages if "difiere" in message)
    assert "," in difference.group(1) and "." not in difference.group(1)
