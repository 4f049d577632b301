"""Lesson 000's Ukrainian edition: its quiz key recomputed from the Ukrainian sentence's maps, the story its prose
tells of them, its checker's Ukrainian sentences, its figure and its claim cells as built."""

import html
import re

import pytest
from varias_cabezas.explorables.rule_heads import WORDS_EN, WORDS_UK, maps, pulled

from course import numbers
from course.exercise import grade
from course.explorables import engine
from coursebuild.lesson import read_lesson
from support import ROOT, assert_quiz_marks_right, build_one_lesson, cell_output, in_language, quiz_of

SLUG = "000-varias-cabezas"
FOLDER = ROOT / "lessons" / SLUG
LESSON = read_lesson(FOLDER / "lesson.uk.md")[0]
SPANISH = read_lesson(FOLDER / "lesson.md")[0]
CHECKER = "varias_cabezas.checkers.multi_head"
FIGURE = "varias_cabezas.explorables.rule_heads"
HEAD_1, HEAD_2, HEAD_3, SUMMED, PAIRED = 0, 1, 2, 4, 5
# Words of the checker's Spanish and English sentences that a Ukrainian one never uses, and Spanish's marks.
FOREIGN_WORDS = re.compile(r"\b(con|se|esperaba|pero|devolviste|salida|cabeza|mapa|fila|falta|revisa|olvidaste|"
                           r"For|was expected|your function|the maps|output is|head|check that|you)\b|[¿¡ñáéíóú]")
CYRILLIC = re.compile(r"[а-яіїєґ]", re.IGNORECASE)


def row(weights, asking):
    """The row of the word `asking` in one map of the Ukrainian sentence."""
    return weights[WORDS_UK.index(asking)]


def test_the_ukrainian_quiz_marks_right_the_words_head_3_pulls_koty_toward():
    computed = pulled(row(maps("uk")[HEAD_3], "коти"), WORDS_UK)
    assert computed == ["ця", "ті"]  # the two demonstratives, singular and plural, tie
    assert_quiz_marks_right(quiz_of(LESSON, "cabeza3-gatos"), computed)


def test_the_ukrainian_sentence_tells_the_story_the_prose_tells():
    weights = maps("uk")
    assert sorted(pulled(row(weights[HEAD_1], "спить"), WORDS_UK)) == sorted(["миша", "коти"])
    assert pulled(row(weights[SUMMED], "спить"), WORDS_UK) == ["миша"]
    assert pulled(row(weights[PAIRED], "спить"), WORDS_UK) == ["миша"]
    assert pulled(row(weights[SUMMED], "ганяють"), WORDS_UK) == ["коти"]
    assert pulled(row(weights[PAIRED], "ганяють"), WORDS_UK) == ["коти"]
    mouse = WORDS_UK.index("миша")
    assert row(weights[HEAD_1], "ганяють")[mouse] > 3 * row(weights[SUMMED], "ганяють")[mouse]
    for flat in (weights[HEAD_3], weights[3]):  # a verb asks for neither demonstratives nor modifiers
        assert pulled(row(flat, "спить"), WORDS_UK) is None


def test_head_2_splits_the_row_of_spyt_among_four_singular_words_where_the_other_editions_have_fewer():
    """What the page says of head 2 in the row of «спить», and why its numbers differ from the other editions'."""
    assert pulled(row(maps("uk")[HEAD_2], "спить"), WORDS_UK) == ["ця", "маленька", "яку", "спить"]
    assert pulled(maps("en")[HEAD_2][WORDS_EN.index("sleeps")], WORDS_EN) == ["this", "sleeps"]
    glue = {language: in_language(language, engine.load, FIGURE).glue() for language in ("uk", "es")}
    assert glue["uk"]["rh_duerme_h2"] < glue["es"]["rh_duerme_h2"]
    text = (FOLDER / "lesson.uk.md").read_text(encoding="utf-8")
    assert "чотири слова, що найвиразніше позначають однину, *ця*, *маленька*, *яку* і саме *спить*" in text
    assert "*яку* стоїть в однині, бо узгоджується зі словом *миша*" in text


def test_the_ukrainian_map_buttons_panel_and_glue_speak_ukrainian():
    explorable = in_language("uk", engine.load, FIGURE)
    spanish = in_language("es", engine.load, FIGURE)
    labels = [label for _, label in explorable.controls[0].options]
    assert labels[SUMMED] == "Одна голова · чотири правила разом" and all(CYRILLIC.search(label) for label in labels)
    assert [label for _, label in explorable.controls[1].options] == list(WORDS_UK)
    state = in_language("uk", explorable.compute, (SUMMED, WORDS_UK.index("ганяють")))
    assert state["panel"][0] == ("title", "Куди тягне рядок «ганяють», мапа за мапою:")
    assert state["map"]["rows"] == WORDS_UK and state["map"]["title"] == labels[SUMMED]
    glue, glue_es = explorable.glue(), spanish.glue()
    assert sorted(glue) == sorted(glue_es)
    assert glue["rh_persiguen_suma_raton"] == row(maps("uk")[SUMMED], "ганяють")[WORDS_UK.index("миша")]
    assert glue["rh_gatos_h3"] == row(maps("uk")[HEAD_3], "коти")[WORDS_UK.index("ті")]


def test_the_ukrainian_edition_points_at_the_primary_s_known_wrong_solutions():
    exercise, primary = LESSON.exercises[0], SPANISH.exercises[0]
    assert exercise.wrong == primary.wrong
    assert exercise.starter != primary.starter and exercise.solution != primary.solution
    for code in (exercise.starter, exercise.solution):
        assert CYRILLIC.search(code) and not re.search(r"salida|mapas|bloque|cabeza", code), code


@pytest.mark.parametrize("name", sorted(SPANISH.exercises[0].wrong))
def test_every_known_wrong_solution_fails_with_a_ukrainian_sentence(name):
    result = in_language("uk", grade, LESSON.exercises[0].wrong[name], CHECKER)
    message = result["results"][-1]["message"]
    assert not result["passed"]
    assert CYRILLIC.search(message) and not FOREIGN_WORDS.search(message), message


def test_each_known_wrong_solution_gets_its_own_ukrainian_sentence():
    messages = [in_language("uk", grade, code, CHECKER)["results"][-1]["message"]
                for _, code in sorted(LESSON.exercises[0].wrong.items())]
    assert len(set(messages)) == len(messages)


def test_the_ukrainian_reference_passes_and_the_starter_fails_in_ukrainian():
    result = in_language("uk", grade, LESSON.exercises[0].solution, CHECKER)
    assert result["passed"] and result["results"][-1]["message"] == "Правильно для T=2, d_model=12, h=3."
    started = in_language("uk", grade, LESSON.exercises[0].starter, CHECKER)
    assert not started["passed"] and CYRILLIC.search(started["results"][-1]["message"])


def test_every_link_to_another_lesson_goes_to_a_ukrainian_page_where_there_is_one():
    text = (FOLDER / "lesson.uk.md").read_text(encoding="utf-8")
    linked = re.findall(r"\]\((\.\./[^)#]*)\)", text)
    assert linked and all(re.fullmatch(r"\.\./\.\./[^/]+/([a-z]{2}/)?", link) for link in linked), linked
    for link in linked:
        folder = ROOT / "lessons" / link.split("/")[2]
        primary = read_lesson(folder / "lesson.md")[0]
        has_ukrainian = primary.language == "uk" or (folder / "lesson.uk.md").exists()
        edition = link.split("/")[3] or primary.language
        assert edition == "uk" or not has_ukrainian, link  # a lesson with a Ukrainian page is linked to it
        assert edition == primary.language or (folder / "lesson.{}.md".format(edition)).exists(), link


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build_one_lesson(tmp_path_factory, FOLDER)


def test_the_ukrainian_parameter_table_groups_digits_the_ukrainian_way(site):
    printed = cell_output((site / SLUG / "uk" / "index.html").read_text(), LESSON, "capa")
    assert re.search(r"^ 8 +64 +786\u00a0432 +262\u00a0144 +1\u00a0048\u00a0576$", printed, re.M), printed


def test_the_ukrainian_page_draws_the_figure_and_quotes_its_numbers_in_ukrainian(site):
    page = (site / SLUG / "uk" / "index.html").read_text()
    assert "Одна голова · чотири правила разом" in page and "Una sola cabeza" not in page and "One head ·" not in page
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    head_2 = in_language("uk", engine.load, FIGURE).glue()["rh_duerme_h2"]
    assert "по {} кожному".format(numbers.number(head_2, ".2f", "uk")) in text
