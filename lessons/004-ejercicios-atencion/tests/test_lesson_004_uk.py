"""Lesson 004's Ukrainian edition: its exercise files, its checkers' Ukrainian sentences, its training table, and
its page."""

import re

import numpy as np
import pytest
from lesson_004_editions import CHECKERS, ENGLISH_NAMES, HISTORY, checker, the_one_failure

from course.exercise import function_name, grade
from coursebuild.lesson import read_lesson
from support import ROOT, in_language

FOLDER = ROOT / "lessons" / "004-ejercicios-atencion"
PRIMARY = read_lesson(FOLDER / "lesson.md")[0]
EDITION = read_lesson(FOLDER / "lesson.uk.md")[0]
EXERCISES = {found.id: found for found in EDITION.exercises}
WRONG = [(exercise, name) for exercise in CHECKERS for name in sorted(EXERCISES[exercise].wrong)]
CYRILLIC = re.compile("[а-яіїєґ]", re.IGNORECASE)
FOREIGN_WORDS = re.compile(r"\b(For|Con|was expected|se esperaba|your function|tu función|the|los|las)\b")


def graded(language, code, exercise):
    """The checker's result for `code`, with the page's language set to `language` as the runner sets it."""
    return in_language(language, grade, code, checker(exercise))


@pytest.mark.parametrize("exercise", CHECKERS)
def test_the_checker_asks_ukrainian_learners_for_the_english_identifier(exercise):
    module = __import__(checker(exercise), fromlist=["FUNCTION"])
    assert function_name(module, "uk") == ENGLISH_NAMES[exercise]
    assert function_name(module, "es") == exercise


def defined(code, name):
    """The function `name` that `code` defines."""
    namespace = {}
    exec(compile(code, name, "exec"), namespace)
    return namespace[name]


def test_the_ukrainian_causal_attention_returns_the_output_first_as_lesson_003s_does():
    lesson_003 = read_lesson(ROOT / "lessons" / "003-odna-holova" / "lesson.md")[0]
    head = next(found for found in lesson_003.exercises if found.id == "causal_attention")
    assert lesson_003.language == "uk" and head.checker.endswith("causal_attention")
    rng = np.random.default_rng(0)
    T, d, d_v = 4, 5, 3  # d_v differs from T, so the output (T, d_v) cannot pass for the weights (T, T)
    X, Wq, Wk, Wv = rng.normal(size=(T, d)), rng.normal(size=(d, 2)), rng.normal(size=(d, 2)), rng.normal(size=(d, d_v))
    first, second = defined(head.solution, "causal_attention")(X, Wq, Wk, Wv)
    assert (first.shape, second.shape) == ((T, d_v), (T, T))
    Q, K, V = rng.normal(size=(T, d)), rng.normal(size=(T, d)), rng.normal(size=(T, d_v))
    first, second = defined(EXERCISES["atencion_causal"].solution, "causal_attention")(Q, K, V)
    assert (first.shape, second.shape) == ((T, d_v), (T, T))


@pytest.mark.parametrize("exercise", CHECKERS)
def test_the_ukrainian_reference_passes_every_case_and_the_starter_fails(exercise):
    result = graded("uk", EXERCISES[exercise].solution, exercise)
    assert result["passed"], result["results"]
    assert len(result["results"]) == 6
    assert all(item["message"].startswith("Правильно для ") for item in result["results"])
    starter = graded("uk", EXERCISES[exercise].starter, exercise)
    assert not starter["passed"]
    assert CYRILLIC.search(starter["results"][-1]["message"])


@pytest.mark.parametrize("exercise", CHECKERS)
def test_the_ukrainian_exercise_files_comment_in_ukrainian(exercise):
    found = EXERCISES[exercise]
    assert found.starter != next(other for other in PRIMARY.exercises if other.id == exercise).starter
    assert CYRILLIC.search(found.starter + found.solution), exercise


@pytest.mark.parametrize("exercise", CHECKERS)
def test_the_ukrainian_edition_has_the_primarys_known_mistakes(exercise):
    primary = next(found for found in PRIMARY.exercises if found.id == exercise)
    assert sorted(EXERCISES[exercise].wrong) == sorted(primary.wrong)


@pytest.mark.parametrize("exercise, name", WRONG)
def test_each_known_mistake_fails_with_one_ukrainian_sentence_of_its_own(exercise, name):
    code = EXERCISES[exercise].wrong[name]
    ukrainian = graded("uk", code, exercise)
    message = the_one_failure(ukrainian, "Для ")
    assert CYRILLIC.search(message) and not FOREIGN_WORDS.search(message), message
    assert message != graded("en", code, exercise)["results"][-1]["message"]


@pytest.mark.parametrize("exercise", CHECKERS)
def test_the_ukrainian_known_mistakes_each_get_a_different_sentence(exercise):
    messages = [graded("uk", EXERCISES[exercise].wrong[name], exercise)["results"][-1]["message"]
                for other, name in WRONG if other == exercise]
    assert len(set(messages)) == len(messages), messages


def test_the_ukrainian_sentences_write_numbers_the_ukrainian_way():
    message = graded("uk", EXERCISES["parametros_bloque"].starter, "parametros_bloque")["results"][-1]["message"]
    assert message.startswith("Для d_model=128") and "198\u00a0272" in message


def test_the_training_table_speaks_ukrainian_in_columns_that_line_up():
    from ejercicios_atencion.digitos import tabla
    table = in_language("uk", tabla, HISTORY)
    assert table == ("епоха   втрата    цифри  послідовності\n"
                     "    1    0,707   99,5 %         96,2 %\n"
                     "    2    0,015  100,0 %         99,5 %\n"
                     "зупинено під час епохи 2")
    heading, *rows = table.splitlines()[:3]
    assert all(len(row) == len(heading) for row in rows)


def test_the_ukrainian_page_is_built_in_ukrainian_with_its_function_names(course_site):
    page = (course_site / "004-ejercicios-atencion" / "uk" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="uk"' in page
    assert '<h2 id="exercise-softmax_temperatura-title">Завдання: <code>softmax_temperature</code></h2>' in page
    assert "епоха   втрата    цифри  послідовності" in page  # the build's training table, in the page's words
