"""Lesson 004's English edition: its exercise files (its own starters and references, lesson.md's known-wrong
solutions under the English function names) and its checkers' English sentences, and the English names of the
lesson's modules."""

import re

import pytest
from lesson_004_editions import CHECKERS, ENGLISH_NAMES, HISTORY, checker, the_one_failure

from course.exercise import function_name, grade
from course.numbers import set_language
from coursebuild.lesson import read_lesson
from support import ROOT, assert_every_mistake_named, in_language

FOLDER = ROOT / "lessons" / "004-ejercicios-atencion"
PAGES = {language: {exercise.id: exercise for exercise in read_lesson(FOLDER / name)[0].exercises}
         for language, name in (("es", "lesson.md"), ("en", "lesson.en.md"))}
WRONG = [(exercise, name) for exercise in CHECKERS for name in sorted(PAGES["en"][exercise].wrong)]
SPANISH_MARKS = re.compile("[«»¿¡áéíóúñÁÉÍÓÚÑü]")


def source(language, exercise, path):
    """The code of one exercise file as the page in `language` has it: the starter or reference under exercises/
    (es) or exercises.en/ (en), or 'wrong/<name>', lesson.md's known-wrong solution as that page's checker grades it."""
    if path.startswith("wrong/"):
        return PAGES[language][exercise].wrong[path[len("wrong/"):]]
    return (FOLDER / ("exercises" if language == "es" else "exercises.en") / exercise / path).read_text()


def graded(language, exercise, path):
    """The checker's result for one exercise file (see source), in `language`."""
    return in_language(language, grade, source(language, exercise, path), checker(exercise))


@pytest.mark.parametrize("exercise", CHECKERS)
def test_the_checker_asks_english_learners_for_the_english_name(exercise):
    module = __import__(checker(exercise), fromlist=["FUNCTION"])
    assert function_name(module, "en") == ENGLISH_NAMES[exercise]
    assert function_name(module, "es") == exercise


@pytest.mark.parametrize("exercise", CHECKERS)
def test_the_english_reference_passes_every_case_and_the_starter_fails(exercise):
    result = graded("en", exercise, "solution.py")
    assert result["passed"], result["results"]
    assert len(result["results"]) == 6
    assert all(item["message"].startswith("Right for ") for item in result["results"])
    assert not graded("en", exercise, "starter.py")["passed"]


@pytest.mark.parametrize("exercise", CHECKERS)
def test_the_english_edition_grades_lesson_mds_known_mistakes_under_the_english_name(exercise):
    names = {path.name for path in (FOLDER / "exercises" / exercise / "wrong").glob("*.py")}
    assert {name for other, name in WRONG if other == exercise} == names
    for name in names:
        code = source("en", exercise, "wrong/" + name)
        assert "def {}(".format(ENGLISH_NAMES[exercise]) in code and "def {}(".format(exercise) not in code, name


@pytest.mark.parametrize("exercise, name", WRONG)
def test_each_english_known_mistake_fails_with_one_english_sentence_of_its_own(exercise, name):
    english = graded("en", exercise, "wrong/" + name)
    spanish = graded("es", exercise, "wrong/" + name)
    message = the_one_failure(english, "For ")
    assert english["function"] == ENGLISH_NAMES[exercise]  # lesson.md's function, found under its English name
    assert not SPANISH_MARKS.search(message), message
    assert message != spanish["results"][-1]["message"]


@pytest.mark.parametrize("exercise", CHECKERS)
def test_the_english_known_mistakes_each_get_a_different_sentence(exercise):
    messages = [graded("en", exercise, "wrong/" + name)["results"][-1]["message"]
                for other, name in WRONG if other == exercise]
    assert len(set(messages)) == len(messages), messages


def test_one_process_grades_in_both_languages_one_after_the_other():
    first = graded("es", "parametros_bloque", "starter.py")["results"][-1]["message"]
    second = graded("en", "parametros_bloque", "starter.py")["results"][-1]["message"]
    assert first.startswith("Con d_modelo=128") and "198.272" in first
    assert second.startswith("For d_model=128") and "198,272" in second


def test_a_spanish_name_in_the_english_edition_is_reported_as_missing():
    set_language("en")
    result = grade((FOLDER / "exercises" / "parches" / "solution.py").read_text(), checker("parches"))
    assert not result["passed"]
    assert result["results"][-1]["message"].startswith("A function called patches was expected")


def test_the_english_names_of_the_lessons_modules_are_the_spanish_objects():
    from ejercicios_atencion import digitos, miniproyecto
    assert miniproyecto.sorted_target is miniproyecto.objetivo_ordenado
    assert miniproyecto.weight_on_written is miniproyecto.peso_en_escrito
    assert digitos.train_with_table is digitos.entrenar_secuencias
    assert (digitos.LENGTH, digitos.DIGITS) == (digitos.LARGO, digitos.DIGITOS)


def test_the_training_table_follows_the_pages_language_and_the_spanish_one_is_as_before():
    from ejercicios_atencion.digitos import tabla
    assert in_language("es", tabla, HISTORY) == ("época  pérdida  dígitos  secuencias\n"
                       "    1    0,707   99,5 %      96,2 %\n"
                       "    2    0,015  100,0 %      99,5 %\n"
                       "detenido durante la época 2")
    assert tabla(HISTORY) == ("epoch     loss   digits   sequences\n"
                              "    1    0.707    99.5%       96.2%\n"
                              "    2    0.015   100.0%       99.5%\n"
                              "stopped during epoch 2")


def test_each_editions_exercise_heading_names_the_function_its_learners_write(course_site):
    english = (course_site / "004-ejercicios-atencion" / "en" / "index.html").read_text(encoding="utf-8")
    spanish = (course_site / "004-ejercicios-atencion" / "index.html").read_text(encoding="utf-8")
    assert '<h2 id="exercise-softmax_temperatura-title">Challenge: <code>softmax_temperature</code></h2>' in english
    assert "<code>softmax_temperature</code></h2>" not in spanish
    assert "<code>softmax_temperatura</code></h2>" in spanish


# Each known-wrong solution's slip, in the words its English message must use (not the formula restated).
SLIPS = {
    "softmax_temperatura": {
        "divides_by_max.py": "not by the largest one", "in_place.py": "changed the array it received",
        "no_exp.py": "without the exponential", "no_max_shift.py": "np.exp overflows",
        "not_normalized.py": "still have to be divided by their sum", "returns_list.py": "a sequence of 4 items",
        "sum_without_t.py": "the denominator needs s / T too", "t_squared.py": "divided by T squared",
        "times_t.py": "you multiplied by T",
    },
    "parametros_bloque": {
        "float_division.py": "as a float", "head_width_matrices.py": "the whole matrix is there only once",
        "mlp_four_times.py": "not always 4 · d_model", "no_attention_biases.py": "the attention's biases",
        "no_mlp_biases.py": "the MLP's biases are missing", "norms_scale_only.py": "only half of the layer norms",
        "one_mlp_layer.py": "the second is missing", "three_matrices.py": "output matrix is missing",
        "times_heads.py": "multiplied the attention by the number of heads",
    },
    "atencion_causal": {
        "both_bugs_as_given.py": "after the softmax, and with k=0 as well", "diagonal_masked.py": "the diagonal too",
        "mask_after_softmax.py": "zeros into the weights after the softmax", "no_mask.py": "in its future",
        "no_max_shift.py": "exp overflowed", "no_scaling.py": "divided by the square root of d",
        "past_masked.py": "not np.tril", "returns_only_weights.py": "a single array",
        "scale_by_d.py": "you divided by d;", "scale_by_v_width.py": "the width of V",
        "scales_q_in_place.py": "changed Q", "softmax_over_columns.py": "down the columns",
        "weights_first.py": "the weights first", "weights_times_q.py": "by Q instead of V",
        "zero_instead_of_inf.py": "masked the scores with 0",
    },
    "memoria_atencion": {
        "causal_triangle.py": "only the triangle", "gigabytes.py": "which is gigabytes",
        "no_blocks.py": "multiply by blocks", "no_bytes.py": "multiply by bytes_per_weight",
        "no_heads.py": "multiply by heads", "no_square.py": "has to be squared", "one_more_token.py": "added one token",
        "times_two.py": "tokens * 2",
    },
    "parches": {
        "channel_last.py": "with the channel last", "columns_first.py": "column by column",
        "height_width_swapped.py": "the width as the height", "no_transpose.py": "a plain reshape",
        "not_flattened.py": "still blocks", "square_count.py": "as if the image were square",
        "square_image.py": "a sequence of 4 items", "x_before_y.py": "swapped y and x",
    },
    "objetivo_ordenado": {
        "argsort.py": "np.argsort gives the positions", "axis_zero.py": "sorted each column",
        "descending.py": "from largest to smallest", "flattened.py": "yours is flat", "in_place.py": "in place",
        "python_sorted.py": "sorted() gives Python lists",
    },
    "peso_en_escrito": {
        "axes_swapped.py": "the axes the wrong way round", "counts_columns.py": "without their weight",
        "first_match_only.py": "only the first column", "mean_of_all.py": "do not take the mean",
        "own_position.py": "the row's own position", "strongest_only.py": "only the strongest square",
        "sum_over_rows.py": "summed down the columns",
    },
}


@pytest.mark.parametrize("exercise", CHECKERS)
def test_every_known_wrong_solution_is_told_its_own_slip_in_english(exercise):
    in_language("en", assert_every_mistake_named, PAGES["en"][exercise], checker(exercise), SLIPS[exercise])
