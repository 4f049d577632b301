"""Lesson 003 (одна голова уваги): its checker, its quiz keys and the numbers its prose quotes."""

import html
import re

import numpy as np
import pytest

from course import numbers
from course.attention import attention, softmax
from course.exercise import grade
from coursebuild.lesson import read_lesson
from support import (
    ROOT,
    assert_every_mistake_named,
    display_formulas_too_wide,
    quiz_option,
    quiz_options,
    serious_axe_findings,
    show_a_hint_then_run_the_first_cell,
    submit_exercise,
)

SLUG = "003-odna-holova"
CHECKER = "odna_holova.checkers.causal_attention"
LESSON = read_lesson(ROOT / "lessons" / SLUG / "lesson.md")[0]
EXERCISE = {exercise.id: exercise for exercise in LESSON.exercises}["causal_attention"]

EMB = {"the": [0.0, 0.0, 0.0, 1.0], "river": [0.0, 1.0, 0.0, 0.2], "money": [1.0, 0.0, 0.0, 0.2],
       "bank": [0.5, 0.5, 0.8, 0.2]}
X2 = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]])  # the, Eiffel, tower
SWAP = np.array([[0.0, 1.0], [1.0, 0.0]])

# What each known mistake's message must name (a phrase of its hint).
NAMED = {
    "mask_after_softmax.py": "після softmax",
    "mask_filled_with_zero.py": "exp(0) = 1",
    "diagonal_masked.py": "діагональ",
    "wrong_triangle.py": "минуле замість майбутнього",
    "no_scaling.py": "бракує ділення",
    "scale_by_input_width.py": "√d (ширину X)",
    "no_mask.py": "маски немає",
    "softmax_over_columns.py": "axis=0",
    "returns_weights_first.py": "спершу ваги A",
    "mixes_inputs_not_values.py": "рядки X",
    "no_max_shift_overflow.py": "NaN",
    "scales_query_in_place.py": "змінила Wq",
}


@pytest.fixture
def ukrainian():
    """The lesson's package writes in the page's language; these tests read lesson.md's, Ukrainian, as its page sets it."""
    numbers.set_language("uk")
    yield
    numbers.set_language("en")


def sentence(*tokens):
    """The lesson's hand-made vectors of `tokens`, one row each."""
    return np.array([EMB[token] for token in tokens])


def bank_row(*tokens):
    """(weights, mixture) of the last position with identity projections, computed by the course library."""
    X = sentence(*tokens)
    H, A = attention(X, X, X)
    return A[-1], H[-1]


def uk(values, decimals):
    """A vector written the way the lesson's prose writes it."""
    return "[{}]".format("; ".join("{:.{}f}".format(value, decimals).replace(".", ",") for value in values))


@pytest.fixture(scope="module")
def glued(course_site):
    """Every quoted value of the built page: glue name -> the text the reader sees."""
    page = (course_site / SLUG / "index.html").read_text()
    return {name: html.unescape(text) for name, text in
            re.findall(r'<span class="glued" data-glue="([^"]+)">(.*?)</span>', page)}


@pytest.mark.usefixtures("ukrainian")
def test_every_known_mistake_fails_with_its_own_sentence_that_names_it():
    assert_every_mistake_named(EXERCISE, CHECKER, NAMED)


@pytest.mark.usefixtures("ukrainian")  # lesson.md's function name, causal_attention (the English one is causal_head)
def test_a_correct_solution_written_differently_from_the_reference_passes():
    code = """
import numpy as np

def causal_attention(X, Wq, Wk, Wv):
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    T = len(X)
    A = np.zeros((T, T))
    for i in range(T):                      # row by row: only the prefix 0..i is allowed
        s = Q[i] @ K[:i + 1].T / np.sqrt(Q.shape[1])
        w = np.exp(s - s.max())
        A[i, :i + 1] = w / w.sum()
    return A @ V, A
"""
    result = grade(code, CHECKER)
    assert result["passed"], result["results"]


@pytest.mark.usefixtures("ukrainian")
def test_the_reference_passes_every_shape_including_a_single_token():
    result = grade(EXERCISE.solution, CHECKER)
    assert result["passed"]
    assert any("T=1," in item["message"] for item in result["results"])


@pytest.mark.parametrize("code, expected", [
    ("def causal_attention(X, Wq, Wk, Wv):\n    return None", "None (чи не забули return?)"),
    ("def causal_attention(X, Wq, Wk, Wv):\n    return X", "один масив форми (4, 5)"),
    ("def causal_attention(X, Wq, Wk, Wv):\n    return [[1]], [[1]]", "масивом NumPy"),
    ("def causal_attention(X, Wq, Wk, Wv):\n    raise KeyError('k')", "викинула KeyError"),
    ("import numpy as np\ndef causal_attention(X, Wq, Wk, Wv):\n"
     "    return np.full((len(X), Wv.shape[1]), np.nan), np.full((len(X), len(X)), np.nan)", "NaN"),
    ("import numpy as np\ndef causal_attention(X, Wq, Wk, Wv):\n"
     "    return np.zeros((len(X), Wv.shape[1])), np.eye(len(X), dtype=int)", "float"),
    ("import numpy as np\ndef causal_attention(X, Wq, Wk, Wv):\n"
     "    return np.zeros((len(X), 7)), np.eye(len(X))", "форма (4, 7)"),
    ("x = 1 / 0", "ZeroDivisionError"),
    ("def other():\n    pass", "не визначає"),
    ("def causal_attention(:", "SyntaxError"),
])
@pytest.mark.usefixtures("ukrainian")
def test_the_checker_explains_strange_returns_in_one_ukrainian_sentence(code, expected):
    result = grade(code, CHECKER)
    assert not result["passed"]
    message = result["results"][-1]["message"]
    assert expected in message and message.endswith(".") and "Traceback" not in message


def test_the_numeric_quiz_keys_are_what_the_library_computes():
    numeric = [quiz for quiz in LESSON.quizzes if quiz.kind == "numeric"]
    assert len(LESSON.quizzes) >= 5 and len(numeric) == 2
    X = sentence("the", "river", "bank")
    unscaled_river = softmax(X[-1] @ X.T)[1]
    assert abs(numeric[0].answer - unscaled_river) <= numeric[0].tolerance
    assert abs(numeric[0].answer - bank_row("the", "river", "bank")[0][1]) > numeric[0].tolerance
    _, A = attention(X2, X2, X2)
    assert abs(numeric[1].answer - A[-1, 1]) <= numeric[1].tolerance


def test_the_prose_quotes_the_weights_mixtures_and_residual_sums_of_the_bank_example(glued):
    for other in ("river", "money"):
        weights, mixture = bank_row("the", other, "bank")
        assert glued["w_" + other] == uk(weights, 2) == "[0,26; 0,31; 0,43]"
        assert glued["mix_" + other] == uk(mixture, 2)
        assert glued["res_" + other] == uk(sentence("bank")[0] + mixture, 2)
    assert glued["mix_river"] == "[0,21; 0,52; 0,34; 0,41]" and glued["mix_money"] == "[0,52; 0,21; 0,34; 0,41]"
    assert glued["res_river"] == "[0,71; 1,02; 1,14; 0,61]" and glued["res_money"] == "[1,02; 0,71; 1,14; 0,61]"
    mean = sentence("the", "river", "bank").mean(axis=0)
    assert (glued["avg_river_water"], glued["avg_river_finance"]) == ("{:.2f}".format(mean[1]).replace(".", ","),
                                                                      "0,17")


def test_the_prose_walks_through_the_bank_row_step_by_step(glued):
    X = sentence("the", "river", "bank")
    dots = X[-1] @ X.T
    assert glued["dots"] == uk(dots, 2) == "[0,20; 0,54; 1,18]"
    assert glued["scaled"] == uk(dots / 2, 2) == "[0,10; 0,27; 0,59]"
    assert glued["steps_weights"] == uk(softmax(dots / 2), 2)


def test_the_prose_quotes_the_eiffel_numbers_with_and_without_the_swapped_query(glued):
    _, A = attention(X2, X2, X2)
    H, _ = attention(X2, X2, X2)
    assert glued["eiffel_w"] == uk(A[-1], 4) == "[0,2483; 0,2483; 0,5035]"
    assert glued["eiffel_mix"] == uk(H[-1], 4) == "[0,5035; 0,2483]"
    H_swap, A_swap = attention(X2 @ SWAP, X2, X2)
    assert glued["swap_w"] == uk(A_swap[-1], 4) == "[0,2483; 0,5035; 0,2483]"
    assert glued["swap_mix"] == uk(H_swap[-1], 4) == "[0,2483; 0,5035]"
    H_values, A_values = attention(X2 @ SWAP, X2, X2 @ SWAP)
    assert glued["values_w"] == glued["swap_w"] and glued["values_mix"] == uk(H_values[-1], 4) == "[0,5035; 0,2483]"
    assert glued["tower_next"] == uk(X2[-1] + H_swap[-1], 4) == "[1,2483; 0,5035]"


def test_the_structure_query_gives_the_seeds_percentages(glued):
    X = sentence("the", "river", "bank")
    Wq = np.zeros((4, 3))
    Wq[2, 1] = 3.75
    _, A = attention(X @ Wq, X @ np.eye(4)[:, :3], X)
    shown = [glued["qm_structure_river_" + token] for token in ("the", "river", "bank")]
    assert shown == ["{:.1f}%".format(100 * w).replace(".", ",") for w in A[-1]] == ["11,1%", "62,6%", "26,3%"]


def test_a_new_key_changes_a_weight_and_the_masks_are_explained_by_computed_numbers(glued):
    with_paris = np.vstack([X2[:2], [[0.0, 1.0]], X2[2:]])
    _, A = attention(with_paris @ SWAP, with_paris, with_paris)
    assert glued["paris_yes"] == "{:.4f}".format(A[-1, 1]).replace(".", ",")
    assert glued["paris_no"] == "0,5035"
    scores = sentence("bank", "river") @ sentence("bank", "river").T / 2
    assert glued["zero_leak"] == "{:.3f}".format(softmax(np.array([scores[0, 0], 0.0]))[1]).replace(".", ",")
    assert glued["cm_bank_of_the_river_causal_bank_bank"] == "1,00"


PAGE = SLUG + "/index.html"
FOLDER = ROOT / "lessons" / SLUG / "exercises" / "causal_attention"


def quiz_verdict(page, number):
    """Submit quiz `number` and return its verdict element."""
    quiz = page.locator("#quiz-{}".format(number))
    quiz.locator("button[type=submit]").click()
    return quiz.locator(".quiz-verdict")


def test_the_quiz_marks_right_and_wrong_answers_in_the_page(page, course_server):
    from playwright.sync_api import expect
    page.goto(course_server.url(PAGE))
    field = page.locator("#quiz-4 input[type=text]")
    field.fill("0,28")
    expect(quiz_verdict(page, 4)).to_have_text("Правильно.")
    field.fill("0,31")
    expect(quiz_verdict(page, 4)).to_have_text("Не зовсім.")
    quiz_option(page.locator("#quiz-3"), "Нічого: нуль після softmax теж дає нульову вагу.").check()
    expect(quiz_verdict(page, 3)).to_have_text("Не зовсім.")
    for option in quiz_options(page.locator("#quiz-6"), "correct"):  # by option id: the page shuffles them
        option.check()
    expect(quiz_verdict(page, 6)).to_have_text("Правильно.")
    page.locator("#quiz-8 input[type=text]").fill("0,2483")
    expect(quiz_verdict(page, 8)).to_have_text("Правильно.")


def submit(page, code):
    """Check `code` as this lesson's exercise."""
    return submit_exercise(page, "causal_attention", code)


def test_the_exercise_rejects_the_mask_filled_with_zero_and_accepts_the_reference(page, course_server):
    from playwright.sync_api import expect
    page.goto(course_server.url(PAGE))
    exercise = submit(page, (FOLDER / "wrong" / "mask_filled_with_zero.py").read_text())
    expect(exercise.locator(".check-fail")).to_contain_text("exp(0) = 1")
    exercise = submit(page, (FOLDER / "solution.py").read_text())
    expect(exercise.locator(".check-verdict")).to_have_text("Зараховано: усі перевірки пройдено.")
    expect(exercise.locator(".check-ok")).to_have_count(6)


@pytest.mark.parametrize("scheme, width", [("light", 1000), ("dark", 1000), ("light", 375)])
def test_with_every_aside_open_the_page_fits_and_axe_finds_nothing_serious(browser, course_server, scheme, width):
    context = browser.new_context(bypass_csp=True, color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(course_server.url(PAGE))
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    serious = serious_axe_findings(page)
    context.close()
    assert serious == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_axe_violations_after_a_learner_has_used_lesson_003(browser, course_server, scheme):
    from playwright.sync_api import expect
    context = browser.new_context(bypass_csp=True, color_scheme=scheme)
    page = context.new_page()
    page.goto(course_server.url(PAGE))
    quiz_option(page.locator("#quiz-5"), "Голова в другому реченні обчислює softmax інакше.").check()
    quiz_verdict(page, 5)
    page.locator("#quiz-4 input[type=text]").fill("не число")
    quiz_verdict(page, 4)
    exercise = submit(page, (FOLDER / "wrong" / "no_mask.py").read_text())
    expect(exercise.locator(".check-fail")).to_contain_text("маски немає")
    show_a_hint_then_run_the_first_cell(page, exercise)
    serious = serious_axe_findings(page)
    context.close()
    assert serious == []


@pytest.mark.parametrize("edition", ["", "en/"])
def test_at_375_px_every_display_formula_fits_its_box(browser, course_server, edition):
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    page.goto(course_server.url(SLUG + "/" + edition + "index.html"))
    count, wide = display_formulas_too_wide(page)
    context.close()
    assert count >= 7 and wide == []
