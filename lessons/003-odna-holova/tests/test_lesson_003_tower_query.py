"""Lesson 003's challenge: a Wq that makes tower attend to Eiffel more than to anything else."""

import numpy as np
import pytest
from test_lesson_003 import ukrainian  # noqa: F401 (a fixture)

from course.exercise import grade
from course.numbers import number
from coursebuild.lesson import read_lesson
from support import ROOT, assert_every_mistake_named

CHECKER = "odna_holova.checkers.tower_query"
LESSON = read_lesson(ROOT / "lessons" / "003-odna-holova" / "lesson.md")[0]
EXERCISE = {exercise.id: exercise for exercise in LESSON.exercises}["tower_query"]

# What each known mistake's message must name (a phrase of its own sentence).
NAMED = {
    "raw_similarity.py": "сира схожість",
    "zero_matrix.py": "Нульова Wq",
    "query_against_paris.py": "від'ємну координату паризькості",
    "column_convention.py": "транспонуйте Wq",
    "reads_the_wrong_row.py": "перший рядок Wq",
    "returns_the_query.py": "вектор форми (2,)",
    "tie_with_tower.py": "не менша за паризьку",
    "forgets_return.py": "return Wq",
}


def tower_row(Wq):
    """tower's weights over the, Eiffel, tower, computed here from the lesson's vectors."""
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    scores = X @ (X[2] @ np.asarray(Wq, dtype=float)) / np.sqrt(2)
    return np.exp(scores) / np.exp(scores).sum()


def test_the_reference_passes_and_its_message_quotes_towers_weights():
    result = grade(EXERCISE.solution, CHECKER)
    assert result["passed"], result["results"]
    weights = tower_row([[0.0, 1.0], [1.0, 0.0]])
    assert number(weights[1], ".4f") in result["results"][-1]["message"]


@pytest.mark.usefixtures("ukrainian")
def test_every_known_mistake_fails_with_its_own_sentence_that_names_it():
    assert_every_mistake_named(EXERCISE, CHECKER, NAMED)


def test_the_starter_does_not_pass():
    assert not grade(EXERCISE.starter, CHECKER)["passed"]


@pytest.mark.parametrize("Wq", [[[0, 2], [5, 5]], [[0.5, 3.0], [0.0, 0.0]], [[-1.0, 0.01], [0.0, 0.0]]])
def test_a_different_correct_matrix_passes_even_written_as_a_list_of_integers(Wq):
    assert tower_row(Wq)[1] > max(tower_row(Wq)[0], tower_row(Wq)[2])  # the case is right by direct computation
    result = grade("def make_wq():\n    return {}\n".format(Wq), CHECKER)
    assert result["passed"], result["results"]


@pytest.mark.usefixtures("ukrainian")
def test_a_matrix_of_another_shape_and_code_that_raises_get_one_sentence_each():
    wide = grade("import numpy as np\n\ndef make_wq():\n    return np.ones((2, 3))\n", CHECKER)
    assert "форма (2, 3)" in wide["results"][-1]["message"]
    raised = grade("def make_wq():\n    return 1 / 0\n", CHECKER)
    assert "ZeroDivisionError" in raised["results"][-1]["message"] and not raised["passed"]
