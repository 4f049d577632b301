"""Lesson 000's quiz and challenge in Chromium: verdicts, explanations, saved state, Show solution."""

import pytest
from playwright.sync_api import expect

from support import ROOT, quiz_option, quiz_options, submit_exercise

LESSON = "000-varias-cabezas/index.html"
FOLDER = ROOT / "lessons" / "000-varias-cabezas" / "exercises" / "multi_head"


def quiz(page, number):
    return page.locator("#quiz-{}".format(number))


def answer(page, number):
    quiz(page, number).locator("button[type=submit]").click()
    return quiz(page, number).locator(".quiz-verdict")


def test_a_single_choice_question_says_right_or_wrong_and_explains(page, course_server):
    page.goto(course_server.url(LESSON))
    quiz_option(quiz(page, 4), "En nada; con las mismas columnas producen los mismos mapas.").check()
    expect(answer(page, 4)).to_have_text("No es correcto.")
    quiz(page, 4).locator("[data-action=retry]").click()
    expect(quiz(page, 4).locator(".quiz-feedback")).to_be_hidden()
    [right] = quiz_options(quiz(page, 4), "correct")  # by option id: its label holds math
    right.check()
    expect(answer(page, 4)).to_have_text("Correcto.")
    expect(quiz(page, 4).locator(".quiz-explanation")).to_be_visible()


def test_a_numeric_question_reads_numbers_as_spanish_writes_them(page, course_server):
    page.goto(course_server.url(LESSON))
    expect(quiz(page, 5).locator(".quiz-note")).to_have_text("Se espera la respuesta exacta.")
    field = quiz(page, 5).locator("input[type=text]")
    for typed in ("262144", "262.144", "262 144", "262\u00a0144"):
        field.fill(typed)
        expect(answer(page, 5)).to_have_text("Correcto.")
    for typed in ("1048576", "262,1440"):  # in Spanish, 262,1440 can only be a decimal number
        field.fill(typed)
        expect(answer(page, 5)).to_have_text("No es correcto.")
    field.fill("doscientos mil")
    expect(answer(page, 5)).to_contain_text("no se puede leer como número")
    expect(quiz(page, 5).locator(".quiz-explanation")).to_be_hidden()
    assert quiz(page, 5).get_attribute("data-state") == "invalid"


def test_multiple_selection_is_all_or_nothing(page, course_server):
    page.goto(course_server.url(LESSON))
    expect(quiz(page, 3).locator(".quiz-note")).to_contain_text("todo o nada")
    right, wrong = quiz_options(quiz(page, 3), "correct"), quiz_options(quiz(page, 3), "wrong")
    assert (len(right), len(wrong)) == (3, 2)
    right[0].check()
    right[1].check()
    expect(answer(page, 3)).to_have_text("No es correcto. Opciones mal marcadas: 1 de 5.")
    right[2].check()
    expect(answer(page, 3)).to_have_text("Correcto.")
    wrong[0].check()
    expect(answer(page, 3)).to_have_text("No es correcto. Opciones mal marcadas: 1 de 5.")


def test_true_false_and_answers_survive_a_reload(page, course_server):
    page.goto(course_server.url(LESSON))
    quiz(page, 2).get_by_label("Falso").check()
    expect(answer(page, 2)).to_have_text("Correcto.")
    quiz(page, 5).locator("input[type=text]").fill("12")
    expect(answer(page, 5)).to_have_text("No es correcto.")
    page.reload()
    expect(quiz(page, 2).get_by_label("Falso")).to_be_checked()
    expect(quiz(page, 2).locator(".quiz-verdict")).to_have_text("Correcto.")
    expect(quiz(page, 5).locator("input[type=text]")).to_have_value("12")
    expect(quiz(page, 5).locator(".quiz-verdict")).to_have_text("No es correcto.")


def submit(page, code):
    """Check `code` as this lesson's exercise."""
    return submit_exercise(page, "multi_head", code)


def test_a_wrong_solution_gets_its_message_and_the_solution_needs_an_attempt(page, course_server):
    page.goto(course_server.url(LESSON))
    exercise = page.locator("#exercise-multi_head")
    expect(exercise.locator("[data-action=solution]")).to_be_disabled()
    submit(page, (FOLDER / "wrong" / "pair_swapped.py").read_text())
    expect(exercise.locator(".check-fail")).to_contain_text("devolviste primero los mapas")
    expect(exercise.locator(".attempts")).to_have_text("Intentos: 1")
    exercise.locator("[data-action=solution]").click()
    expect(exercise.locator(".solution-confirm")).to_be_visible()
    expect(exercise.locator(".solution")).to_be_hidden()
    exercise.locator("[data-action=confirm-solution]").click()
    expect(exercise.locator(".solution")).to_contain_text("def multi_head")


def test_the_reference_passes_and_code_attempts_and_result_survive_a_reload(page, course_server):
    page.goto(course_server.url(LESSON))
    exercise = submit(page, (FOLDER / "solution.py").read_text())
    expect(exercise.locator(".check-verdict")).to_have_text("Superado: todas las comprobaciones son correctas.")
    expect(exercise.locator(".check-ok")).to_have_count(6)
    exercise.locator("[data-action=hint]").click()
    expect(exercise.locator(".hints li").first).to_be_visible()
    page.reload()
    exercise = page.locator("#exercise-multi_head")
    expect(exercise.locator(".cell-code code")).to_contain_text("np.stack(mapas)")
    expect(exercise.locator(".attempts")).to_have_text("Intentos: 1")
    expect(exercise.locator(".check-verdict")).to_have_text("Superado: todas las comprobaciones son correctas.")
    expect(exercise.locator(".hints li").first).to_be_visible()


STORED_EXERCISE = "() => JSON.parse(localStorage.getItem(Object.keys(localStorage).find((key) => key.endsWith(':exercise:multi_head'))))"


def test_starting_over_folds_the_hints_and_the_solution_again_and_keeps_what_was_taken(page, course_server):
    page.goto(course_server.url(LESSON))
    exercise = page.locator("#exercise-multi_head")
    hints, solution = exercise.locator(".hints > li"), exercise.locator(".solution")
    first_hint = exercise.locator("[data-action=hint]").text_content()
    submit(page, (FOLDER / "wrong" / "pair_swapped.py").read_text())  # an attempt: the solution may be shown
    exercise.locator("[data-action=hint]").click()
    expect(hints.nth(0)).to_be_visible()
    exercise.locator("[data-action=solution]").click()
    exercise.locator("[data-action=confirm-solution]").click()
    expect(solution).to_be_visible()

    exercise.locator("[data-action=reset-exercise]").click()
    expect(exercise.locator(".cell-code")).to_contain_text("d_k = X.shape[1] // h")  # the starter again
    expect(hints.nth(0)).to_be_hidden()
    expect(solution).to_be_hidden()
    expect(exercise.locator("[data-action=hint]")).to_have_text(first_hint)  # the next hint asked for is the first
    stored = page.evaluate(STORED_EXERCISE)
    assert (stored["hints"], stored["solutionShown"], stored["attempts"]) == (1, True, 1)  # what was taken still counts

    page.reload()  # folded it stays
    exercise = page.locator("#exercise-multi_head")
    expect(exercise.locator(".attempts")).to_have_text("Intentos: 1")
    expect(hints.nth(0)).to_be_hidden()
    expect(solution).to_be_hidden()
    exercise.locator("[data-action=hint]").click()
    expect(hints.nth(0)).to_be_visible()
    expect(hints.nth(1)).to_be_hidden()
    exercise.locator("[data-action=solution]").click()
    exercise.locator("[data-action=confirm-solution]").click()
    expect(solution).to_be_visible()


@pytest.mark.parametrize("service_workers", ["allow", "block"])
def test_a_solution_that_never_returns_is_stopped_like_a_cell(browser, course_server, service_workers):
    # With the service worker, Stop interrupts the check (its flag, on this first visit); without, it restarts Python.
    context = browser.new_context(service_workers=service_workers)
    page = context.new_page()
    page.goto(course_server.url(LESSON))
    exercise = page.locator("#exercise-multi_head")
    exercise.locator(".cell-code").click()
    exercise.locator(".cm-content").press("Control+a")
    page.keyboard.insert_text("def multi_head(X, Wq, Wk, Wv, Wo, h):\n    while True: pass\n")
    exercise.locator("[data-action=check]").click()
    expect(exercise).to_have_attribute("data-state", "running", timeout=120_000)
    page.locator("[data-action=stop]").click()
    expect(exercise).not_to_have_attribute("data-state", "running")
    if service_workers == "allow":
        expect(exercise.locator(".out-stopped")).to_be_visible()
        expect(exercise.locator(".out-restart")).to_have_count(0)
    else:
        expect(exercise.locator(".out-restart")).to_be_visible()
    submit(page, (FOLDER / "solution.py").read_text())
    expect(exercise.locator(".check-verdict")).to_contain_text("Superado")
    context.close()


def check_numbers(page, field, verdict, right, wrong, invalid):
    for typed in right:
        field.fill(typed)
        field.press("Enter")
        expect(verdict).to_have_attribute("data-state", "right")
    for typed in wrong:
        field.fill(typed)
        field.press("Enter")
        expect(verdict).to_have_attribute("data-state", "wrong")
    field.fill(invalid)
    field.press("Enter")
    expect(verdict).to_have_attribute("data-state", "invalid")


def test_numbers_are_read_the_way_english_writes_them(page, playground_server):
    page.goto(playground_server.url("01-playground/index.html"))
    quiz_form = page.locator("#quiz-1")
    check_numbers(page, quiz_form.locator("input[type=text]"), quiz_form,
                  right=["1048576", "1,048,576", "1 048 576", "1.048.576"], wrong=["1.0480", "1048575"], invalid="1,04,8")
    expect(quiz_form.locator(".quiz-verdict")).to_contain_text("cannot be read as a number")


def test_numbers_are_read_the_way_ukrainian_writes_them(page, playground_server):
    page.goto(playground_server.url("02-druhyi/index.html"))
    quiz_form = page.locator("#quiz-1")
    expect(quiz_form.locator(".quiz-note")).to_have_text("Допускається похибка ±0,01.")
    check_numbers(page, quiz_form.locator("input[type=text]"), quiz_form,
                  right=["0,25", "0.25", "0,26", "0,245"], wrong=["0,3", "25"], invalid="чверть")
