"""Lesson 000's English edition: its quiz key recomputed from the English sentence's maps, its checker's English
sentences, its figure and its claim cells as built."""

import re

import pytest
from varias_cabezas.explorables.rule_heads import WORDS, WORDS_EN, maps, pulled

from course.exercise import grade
from coursebuild.lesson import read_lesson
from support import ROOT, assert_every_mistake_named, assert_quiz_marks_right, build_one_lesson, in_language, quiz_of

SLUG = "000-varias-cabezas"
FOLDER = ROOT / "lessons" / SLUG
LESSON = read_lesson(FOLDER / "lesson.en.md")[0]
SPANISH = read_lesson(FOLDER / "lesson.md")[0]
CHECKER = "varias_cabezas.checkers.multi_head"
HEAD_3 = 2
# Words of the checker's Spanish sentences that English never uses, and Spanish's marks and accents.
SPANISH_WORDS = re.compile(r"\b(con|se|esperaba|pero|devolviste|salida|cabeza|cabezas|mapa|mapas|fila|falta|"
                           r"revisa|olvidaste|dividiste|tu|función|que|los|las|una|un|y)\b|[¿¡«»ñáéíóú]")


def test_the_english_quiz_marks_right_the_words_head_3_pulls_cats_toward():
    computed = pulled(maps("en")[HEAD_3][WORDS_EN.index("cats")], WORDS_EN)
    assert computed == ["this", "those"]  # the two determiners, singular and plural, tie
    assert_quiz_marks_right(quiz_of(LESSON, "cabeza3-gatos"), computed)


def test_the_english_sentence_tells_the_same_story_as_the_spanish_one():
    english, spanish = maps("en"), maps("es")
    for weights, words, (verb, plural_verb, subject, agent) in (
            (english, WORDS_EN, ("sleeps", "chase", "mouse", "cats")),
            (spanish, WORDS, ("duerme", "persiguen", "ratón", "gatos"))):
        row, plural_row = words.index(verb), words.index(plural_verb)
        assert pulled(weights[0][row], words) == [subject, agent] or pulled(weights[0][row], words) == [agent, subject]
        assert pulled(weights[4][row], words) == [subject] and pulled(weights[5][row], words) == [subject]
        assert pulled(weights[4][plural_row], words) == [agent]
        assert weights[0][plural_row][words.index(subject)] > 3 * weights[4][plural_row][words.index(subject)]
    # What the English prose says of head 2 in the row of "sleeps": most of its weight, on "this" and on itself.
    row = english[1][WORDS_EN.index("sleeps")]
    assert pulled(row, WORDS_EN) == ["this", "sleeps"] and row[[0, 7]].sum() > 0.5


def test_the_english_map_buttons_panel_and_glue_speak_english():
    from course.explorables import engine
    explorable = in_language("en", engine.load, "varias_cabezas.explorables.rule_heads")
    spanish = in_language("es", engine.load, "varias_cabezas.explorables.rule_heads")
    labels = [label for _, label in explorable.controls[0].options]
    assert labels[4] == "One head · the four rules summed" and [label for _, label in explorable.controls[1].options] \
        == list(WORDS_EN)
    state = explorable.compute((4, WORDS_EN.index("chase")))
    assert state["panel"][0] == ("title", "Where the row of \u201cchase\u201d pulls, map by map:")
    glue, glue_es = explorable.glue(), spanish.glue()
    assert sorted(glue) == sorted(glue_es)
    summed = maps("en")[4]
    assert glue["rh_persiguen_suma_raton"] == summed[WORDS_EN.index("chase")][WORDS_EN.index("mouse")]
    assert glue["rh_gatos_h3"] == maps("en")[HEAD_3][WORDS_EN.index("cats")][WORDS_EN.index("those")]


@pytest.mark.parametrize("name", sorted(LESSON.exercises[0].wrong))
def test_every_spanish_known_wrong_solution_fails_the_english_page_with_an_english_sentence(name):
    english = in_language("en", grade, LESSON.exercises[0].wrong[name], CHECKER)
    message = english["results"][-1]["message"]
    assert not english["passed"] and english["function"] == "multi_head"  # graded, not "no function"
    assert not SPANISH_WORDS.search(message), message
    spanish = in_language("es", grade, SPANISH.exercises[0].wrong[name], CHECKER)
    assert message != spanish["results"][-1]["message"]


def test_the_english_page_shows_english_code_and_grades_the_spanish_known_wrong_solutions():
    assert LESSON.exercises[0].wrong == SPANISH.exercises[0].wrong  # multi_head is the name in both languages
    for code in [LESSON.exercises[0].solution, LESSON.exercises[0].starter]:
        assert not re.search(r"salida|mapas|bloque|cabeza", code), code


def test_the_english_reference_passes_in_english():
    result = in_language("en", grade, LESSON.exercises[0].solution, CHECKER)
    assert result["passed"] and result["results"][-1]["message"] == "Right for T=2, d_model=12, h=3."


def test_every_link_to_another_lesson_goes_to_its_english_edition():
    text = (FOLDER / "lesson.en.md").read_text(encoding="utf-8")
    linked = re.findall(r"\]\((\.\./[^)#]*)\)", text)
    english_first = [link for link in linked if re.fullmatch(r"\.\./\.\./[^/]+/", link)]  # lesson.md is English
    assert all(read_lesson(ROOT / "lessons" / link.split("/")[2] / "lesson.md")[0].language == "en"
               for link in english_first), english_first
    linked = [link for link in linked if link not in english_first]
    assert linked and all(re.fullmatch(r"\.\./\.\./[^/]+/en/", link) for link in linked), linked
    assert all((ROOT / "lessons" / link.split("/")[2] / "lesson.md").exists() for link in linked), linked


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build_one_lesson(tmp_path_factory, FOLDER)


def test_each_page_draws_the_figure_and_quotes_its_numbers_in_its_own_language(site):
    english = (site / SLUG / "en" / "index.html").read_text()
    spanish = (site / SLUG / "index.html").read_text()
    assert "One head · the four rules summed" in english and "Una sola cabeza" not in english
    assert "Una sola cabeza · las cuatro reglas sumadas" in spanish and "One head ·" not in spanish


# Each known-wrong solution's slip, in the words its English message must use (not the formula restated).
SLIPS = {
    "averages_heads.py": "average or add up the heads", "concatenates_along_rows.py": "one under the other",
    "forgets_wo.py": "forgot to multiply the joined heads by Wo", "maps_as_list.py": "a list of 2 maps",
    "maps_stacked_last.py": "along the first axis", "no_max_shift_overflow.py": "subtract each row's maximum",
    "no_scaling.py": "not divided by √d_k", "pair_swapped.py": "the maps first",
    "returns_only_output.py": "a single array", "rows_instead_of_columns.py": "took rows",
    "scale_by_d_model.py": "divided by √d_model", "scales_wq_in_place.py": "changed Wq",
    "softmax_over_columns.py": "along each row",
}


def test_every_known_wrong_solution_is_told_its_own_slip_in_english():
    in_language("en", assert_every_mistake_named, LESSON.exercises[0], CHECKER, SLIPS)
