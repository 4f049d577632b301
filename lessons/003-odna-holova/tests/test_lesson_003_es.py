"""Lesson 003's Spanish edition: its exercise files (its own starters and references, lesson.md's known-wrong
solutions under the Spanish function names), and its checkers writing every sentence in Spanish."""

import pytest

from course import numbers
from course.exercise import function_name, grade
from coursebuild.lesson import read_lesson
from support import ROOT, display_formulas_too_wide

FOLDER = ROOT / "lessons" / "003-odna-holova"
SPANISH_NAMES = {"tower_query": "construir_wq", "causal_attention": "cabeza_causal"}
SPANISH, ENGLISH = ({exercise.id: exercise for exercise in read_lesson(FOLDER / name)[0].exercises}
                    for name in ("lesson.es.md", "lesson.en.md"))
NAMED = {  # a phrase each known mistake's Spanish sentence must contain
    "tower_query": {
        "raw_similarity.py": "similitud bruta", "zero_matrix.py": "Una Wq nula",
        "query_against_paris.py": "parisinidad negativa", "column_convention.py": "traspón Wq",
        "reads_the_wrong_row.py": "primera fila de Wq", "returns_the_query.py": "vector de forma (2,)",
        "tie_with_tower.py": "no es menor", "forgets_return.py": "return Wq",
    },
    "causal_attention": {
        "mask_after_softmax.py": "después del softmax", "mask_filled_with_zero.py": "exp(0) = 1",
        "diagonal_masked.py": "también la diagonal", "wrong_triangle.py": "el pasado en lugar del futuro",
        "no_scaling.py": "no se dividen por √d_k", "scale_by_input_width.py": "√d (la anchura de X)",
        "no_mask.py": "ninguna máscara", "softmax_over_columns.py": "axis=0",
        "returns_weights_first.py": "primero los pesos A", "mixes_inputs_not_values.py": "filas de X",
        "no_max_shift_overflow.py": "NaN", "scales_query_in_place.py": "modificó Wq",
    },
}


@pytest.fixture(autouse=True)
def spanish():
    """The Spanish page's language; English again afterwards, as every test starts."""
    numbers.set_language("es")
    yield
    numbers.set_language("en")


def read(exercise, name):
    return (FOLDER / "exercises.es" / exercise / name).read_text(encoding="utf-8")


def wrong_names(exercise):
    """lesson.md's known-wrong solutions of the exercise: every edition grades them."""
    return sorted(path.name for path in (FOLDER / "exercises" / exercise / "wrong").glob("*.py"))


def failures(code, exercise):
    return [item["message"] for item in grade(code, "odna_holova.checkers." + exercise)["results"] if not item["ok"]]


@pytest.mark.parametrize("exercise", SPANISH_NAMES)
def test_the_spanish_page_grades_lesson_mds_known_mistakes_under_the_spanish_name(exercise):
    assert sorted(SPANISH[exercise].wrong) == wrong_names(exercise) == sorted(NAMED[exercise])
    module = __import__("odna_holova.checkers." + exercise, fromlist=["FUNCTION"])
    assert function_name(module, "es") == SPANISH_NAMES[exercise] != function_name(module, "en")
    assert "def {}(".format(SPANISH_NAMES[exercise]) in read(exercise, "solution.py")
    for name, code in SPANISH[exercise].wrong.items():
        assert "def {}(".format(SPANISH_NAMES[exercise]) in code, name


@pytest.mark.parametrize("exercise", SPANISH_NAMES)
def test_the_spanish_reference_passes_and_the_starter_fails_in_spanish(exercise):
    result = grade(read(exercise, "solution.py"), "odna_holova.checkers." + exercise)
    assert result["passed"], result["results"]
    assert result["results"][-1]["message"].startswith("Correcto")
    starter = failures(read(exercise, "starter.py"), exercise)
    assert len(starter) == 1 and starter[0].startswith(("Con ", "La ", "Se "))


@pytest.mark.parametrize("exercise", SPANISH_NAMES)
def test_every_spanish_known_mistake_fails_with_one_spanish_sentence_of_its_own(exercise):
    seen = {}
    for name, phrase in NAMED[exercise].items():
        sentence, = failures(SPANISH[exercise].wrong[name], exercise)
        assert phrase in sentence, (name, sentence)
        assert sentence.endswith(".") and sentence[0].isupper() and "Traceback" not in sentence
        numbers.set_language("en")
        english, = failures(ENGLISH[exercise].wrong[name], exercise)
        numbers.set_language("es")
        assert english != sentence
        seen[name] = sentence
    assert len(set(seen.values())) == len(seen)


def test_the_spanish_numbers_have_a_decimal_comma():
    sentence, = failures(SPANISH["tower_query"].wrong["zero_matrix.py"], "tower_query")
    assert "[0,3333; 0,3333; 0,3333]" in sentence


def test_at_375_px_every_display_formula_of_the_spanish_edition_fits_its_box(browser, course_server):
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    page.goto(course_server.url(FOLDER.name + "/es/index.html"))
    count, wide = display_formulas_too_wide(page)
    context.close()
    assert count >= 7 and wide == []
