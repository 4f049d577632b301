"""Exercise checkers in CPython: every reference passes, every known-wrong solution fails with a sentence, in the
language of the edition that asks (each edition has its own starter and reference; the known-wrong solutions are
lesson.md's, with the function under the edition's name)."""

import ast
import importlib
import re

import pytest

from course import numbers
from course.exercise import function_name, grade
from coursebuild.lesson import read_lesson
from support import ROOT

LESSONS = {path: read_lesson(path)[0] for path in sorted((ROOT / "lessons").glob("*/lesson*.md"))}
EXERCISES = [(lesson.key, exercise) for lesson in LESSONS.values() for exercise in lesson.exercises]
LANGUAGE = {lesson.key: lesson.language for lesson in LESSONS.values()}
WRONG = [(key, exercise, name) for key, exercise in EXERCISES for name in sorted(exercise.wrong)]
NOT_ENGLISH = re.compile("[\u0400-\u04ff¿¡«»ñÑáéíóúÁÉÍÓÚ]")  # Cyrillic, or Spanish's marks and accents


@pytest.fixture(autouse=True)
def page_language(request, monkeypatch):
    """Grade as the page of the test's lesson would: in its language (the runner's init sets it)."""
    key = request.node.callspec.params.get("slug") if hasattr(request.node, "callspec") else None
    monkeypatch.setattr(numbers, "_LANGUAGE", [LANGUAGE.get(key, "es")])


@pytest.mark.parametrize("slug, exercise", EXERCISES, ids=lambda value: getattr(value, "id", value))
def test_the_reference_solution_passes_every_case(slug, exercise):
    result = grade(exercise.solution, exercise.checker)
    assert result["passed"], result["results"]
    if takes_inputs(exercise):  # a function of inputs is tried on several; one without any has one answer to judge
        assert len(result["results"]) >= 6


def takes_inputs(exercise):
    """Whether the function the exercise asks for takes arguments, read from its reference solution."""
    name = function_name(importlib.import_module(exercise.checker))
    function = next(node for node in ast.parse(exercise.solution).body
                    if isinstance(node, ast.FunctionDef) and node.name == name)
    return bool(function.args.args)


@pytest.mark.parametrize("slug, exercise, name", WRONG, ids=lambda value: getattr(value, "id", value))
def test_every_known_wrong_solution_fails_with_one_clear_sentence(slug, exercise, name):
    result = grade(exercise.wrong[name], exercise.checker)
    assert not result["passed"]
    failure = [item["message"] for item in result["results"] if not item["ok"]]
    assert len(failure) == 1 and failure[0].endswith(".") and "Traceback" not in failure[0]
    if LANGUAGE[slug] == "en":
        assert not NOT_ENGLISH.search(failure[0]), failure[0]


EDITION_WRONG = [(key, exercise, name) for key, exercise, name in WRONG if "/" in key]


@pytest.mark.parametrize("slug, exercise, name", EDITION_WRONG, ids=lambda value: getattr(value, "id", value))
def test_an_editions_known_wrong_solution_is_told_in_its_own_language(slug, exercise, name, monkeypatch):
    primary = dict((each.id, each) for key, each in EXERCISES if key == slug.split("/")[0])[exercise.id]
    result = grade(exercise.wrong[name], exercise.checker)
    said = result["results"][-1]["message"]
    assert result.get("function") == function_name(importlib.import_module(exercise.checker))  # found and tried
    monkeypatch.setattr(numbers, "_LANGUAGE", [LANGUAGE[slug.split("/")[0]]])
    assert function_name(importlib.import_module(exercise.checker)) in primary.solution
    if name in primary.wrong:  # the same mistake, told in each edition's words
        assert grade(primary.wrong[name], exercise.checker)["results"][-1]["message"] != said


def test_lesson_000_has_at_least_eight_distinct_known_mistakes():
    exercise = dict(EXERCISES)["000-varias-cabezas"]  # lesson.md's (es), graded in Spanish
    messages = {grade(code, exercise.checker)["results"][-1]["message"] for code in exercise.wrong.values()}
    assert len(exercise.wrong) >= 8 and len(messages) == len(exercise.wrong)


CHECKER = "varias_cabezas.checkers.multi_head"


@pytest.mark.parametrize("code, expected", [
    ("def multi_head(X, Wq, Wk, Wv, Wo, h):\n    return None", "None (¿falta el return?)"),
    ("def multi_head(X, Wq, Wk, Wv, Wo, h):\n    return X", "un único array de forma (4, 8)"),
    ("def multi_head(X, Wq, Wk, Wv, Wo, h):\n    return [[1]], [[1]]", "array de NumPy"),
    ("def multi_head(X, Wq, Wk, Wv, Wo, h):\n    raise KeyError('k')", "lanzó KeyError"),
    ("import numpy as np\ndef multi_head(X, Wq, Wk, Wv, Wo, h):\n"
     "    return np.full(X.shape, np.nan), np.full((h, len(X), len(X)), np.nan)", "NaN"),
    ("import numpy as np\ndef multi_head(X, Wq, Wk, Wv, Wo, h):\n"
     "    return X.astype(int), np.ones((h, len(X), len(X)))", "float"),
    ("x = 1 / 0", "ZeroDivisionError"),
    ("def other():\n    pass", "no la define"),
    ("def multi_head(:", "SyntaxError"),
])
def test_the_checker_explains_strange_returns_without_crashing(code, expected):
    result = grade(code, CHECKER)
    assert not result["passed"]
    assert expected in result["results"][-1]["message"]


def test_checker_sentences_write_numbers_in_the_lesson_language(monkeypatch):
    monkeypatch.setattr(numbers, "_LANGUAGE", ["es"])  # as the runner's init sets it on a Spanish page
    result = grade("def multi_head(X, Wq, Wk, Wv, Wo, h):\n    return [0] * 12345", CHECKER)
    assert "una secuencia de 12.345 elementos" in result["results"][-1]["message"]


def test_a_learners_print_is_kept_with_the_result():
    result = grade("print('debug')\n" + dict(EXERCISES)["000-varias-cabezas"].solution, CHECKER)
    assert result["passed"] and result["output"] == [{"type": "stream", "name": "stdout", "text": "debug\n"}]
