"""The learner's path in headless Chromium: cells that run what they need, a scratch area per challenge, the
course's reading order, honest downloads, quizzes that teach on retry, the editor and the phone."""

import re

from playwright.sync_api import expect

from support import submit_exercise

ONE_HEAD = "003-odna-holova/index.html"
FINISHED = re.compile("done|failed")


def edit_cell(page, number, code):
    """Open cell `number`'s editor and replace its code, as a learner types."""
    page.locator("#cell-{} .cell-code".format(number)).click()
    editor = page.locator("#cell-{} .cm-content".format(number))
    expect(editor).to_be_visible()
    editor.press("Control+a")
    page.keyboard.insert_text(code)


def test_running_a_later_cell_on_a_fresh_visit_runs_the_cells_above_it_first(page, course_server):
    page.goto(course_server.url(ONE_HEAD))
    edit_cell(page, 4, "print(np.round(emb['bank'], 2))\n")
    page.locator("#cell-4 [data-action=run]").click()
    cell = page.locator("#cell-4")
    expect(cell).to_have_attribute("data-state", FINISHED, timeout=120_000)
    assert "NameError" not in cell.locator(".cell-output").text_content()
    expect(cell).to_have_attribute("data-state", "done")
    for number in (1, 2, 3):
        expect(page.locator("#cell-{}".format(number))).to_have_attribute("data-state", "done")
        expect(page.locator("#cell-{}".format(number))).to_have_attribute("data-run-by", "page")
    expect(cell).to_have_attribute("data-run-by", "learner")
    expect(cell.locator(".out-earlier")).to_contain_text("1, 2, 3")


def test_a_failing_cell_above_stops_the_run_and_the_asked_cell_points_at_it(page, course_server):
    page.goto(course_server.url(ONE_HEAD))
    edit_cell(page, 2, "raise ValueError('broken on purpose')\n")
    page.locator("#cell-3 [data-action=run]").click()
    expect(page.locator("#cell-2")).to_have_attribute("data-state", "failed", timeout=120_000)
    note = page.locator("#cell-3 .out-earlier")
    expect(note).to_be_visible()
    expect(note.locator("a[href='#cell-2']")).to_have_count(2)
    assert page.locator("#cell-3").get_attribute("data-state") == ""
    assert page.locator("#cell-3 .cell-output").get_attribute("data-origin") == "build"


def test_a_checked_challenge_joins_the_page_so_a_cell_can_try_its_function(page, course_server):
    page.goto(course_server.url("000-varias-cabezas/index.html"))
    exercise = page.locator("#exercise-multi_head")
    expect(exercise.locator(".exercise-namespace")).to_contain_text("Python")
    exercise = submit_exercise(page, "multi_head", "def multi_head(X, Wq, Wk, Wv, Wo, h):\n    return X, None\n")
    expect(exercise).to_have_attribute("data-state", "failed")
    edit_cell(page, 1, "print(multi_head(1, 2, 3, 4, 5, 6))\n")
    page.locator("#cell-1 [data-action=run]").click()
    expect(page.locator("#cell-1")).to_have_attribute("data-state", "done", timeout=120_000)
    expect(page.locator("#cell-1 .cell-output")).to_have_text("(1, None)\n")
