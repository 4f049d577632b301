"""Cells' display tags and answer-first outputs in Chromium, on the fixture lesson tests/fixtures/cells."""

import json
import re

import pytest
from playwright.sync_api import expect

from support import ROOT, Server, build_site, edit_cell

FIXTURE = ROOT / "tests" / "fixtures" / "cells" / "lessons"
PAGE = "01-celdas/index.html"
CELLS = range(1, 10)


@pytest.fixture(scope="module")
def cells_site(tmp_path_factory):
    return build_site(FIXTURE, tmp_path_factory.mktemp("cells") / "_site")


@pytest.fixture(scope="module")
def cells_server(cells_site):
    server = Server(cells_site)
    yield server
    server.close()


def output(page, number):
    return "".join(page.locator("#cell-{} .cell-output .out".format(number)).all_text_contents())


def run_all(page):
    page.locator("[data-action=run-all]").click()
    expect(page.locator("#cell-9")).to_have_attribute("data-state", "done", timeout=120_000)


def test_every_cell_reproduces_its_build_output_shown_or_not(page, cells_server):
    page.goto(cells_server.url(PAGE))
    built = {number: output(page, number) for number in CELLS}
    assert built[2] == "oculta 20\n" and built[4] == "salida quitada 21\n"  # kept, out of sight, to compare
    assert built[9] == "1.048.576,5 [0,50; 0,25]\n"  # the page's worker writes numbers in the lesson's language
    run_all(page)
    for number in CELLS:
        expect(page.locator("#cell-{}".format(number))).to_have_attribute("data-state", "done")
        assert page.locator("#cell-{} .cell-output".format(number)).get_attribute("data-origin") == "live"
        assert output(page, number) == built[number], number


def test_a_removed_cell_is_not_shown_but_runs_in_page_order(page, cells_server):
    page.goto(cells_server.url(PAGE))
    expect(page.locator("#cell-2")).to_be_hidden()
    assert page.locator("#cell-2 .cell-code, #cell-2 [data-action=run]").count() == 0
    data = json.loads(page.locator("body > script#page-data").text_content())
    assert "y = x * 10" in data["cells"][1]["code"]
    edit_cell(page, 1, "x = 3")
    run_all(page)
    expect(page.locator("#cell-2")).to_be_hidden()
    assert output(page, 2) == "oculta 30\n" and output(page, 7) == "después 30\n"


def test_a_removed_cell_that_raises_stays_out_of_sight_and_leaves_the_page_ready(page, cells_server):
    page.goto(cells_server.url(PAGE))
    edit_cell(page, 1, "x = None")
    page.locator("[data-action=run-all]").click()
    expect(page.locator("#cell-2")).to_have_attribute("data-state", "failed", timeout=120_000)
    expect(page.locator("#cell-2")).to_be_hidden()  # the learner can neither see nor fix it (issue 53)
    expect(page.locator("#cell-1")).to_have_attribute("data-state", "done")
    expect(page.locator(".runtime-status")).not_to_contain_text("1.1")  # the hidden cell is never named


def test_a_removed_input_shows_its_output_and_its_live_run(page, cells_server):
    page.goto(cells_server.url(PAGE))
    expect(page.locator("#cell-3 .cell-output")).to_have_text("solo la salida 20\n")
    assert page.locator("#cell-3 .cell-code, #cell-3 .cell-bar").count() == 0
    edit_cell(page, 1, "x = 4")
    run_all(page)
    expect(page.locator("#cell-3 .cell-output")).to_have_text("solo la salida 40\n")


def test_a_removed_output_shows_only_the_code_before_and_after_a_run(page, cells_server):
    page.goto(cells_server.url(PAGE))
    expect(page.locator("#cell-4 .cell-code")).to_be_visible()
    expect(page.locator("#cell-4 .cell-output")).to_be_hidden()
    run_all(page)
    page.locator("#cell-4 [data-action=run]").click()
    expect(page.locator("#cell-4")).to_have_attribute("data-state", "done", timeout=60_000)
    expect(page.locator("#cell-4 .cell-output")).to_be_hidden()
    assert output(page, 4) == "salida quitada 21\n"


@pytest.mark.parametrize("number, part, label", [(5, ".cell-code", "Mostrar el código"),
                                                  (6, ".cell-output", "Mostrar la salida")])
def test_a_hidden_part_is_folded_until_the_learner_opens_it(page, cells_server, number, part, label):
    page.goto(cells_server.url(PAGE))
    target = page.locator("#cell-{} {}".format(number, part))
    expect(target).to_be_hidden()
    run_all(page)
    expect(target).to_be_hidden()  # running the cell keeps the reader's fold as it was
    page.locator("#cell-{} summary".format(number)).get_by_text(label).click()
    expect(target).to_be_visible()
    text = "código plegado 22" if number == 5 else "salida plegada 23"
    expect(page.locator("#cell-{}".format(number))).to_contain_text(text)


def test_the_note_on_cells_run_first_keeps_its_styling_inside_a_folded_output(page, cells_server):
    style = "(note) => ['borderLeftWidth', 'borderLeftStyle', 'paddingLeft', 'fontSize'].map((name) => " \
            "getComputedStyle(note)[name])"
    page.goto(cells_server.url(PAGE))
    page.locator("#cell-6 [data-action=run]").click()  # its output is folded (hide-output), and so is the note
    expect(page.locator("#cell-6")).to_have_attribute("data-state", "done", timeout=120_000)
    page.locator("#cell-6 summary").get_by_text("Mostrar la salida").click()
    folded = page.locator("#cell-6 .cell-fold > .run-note")
    expect(folded).to_be_visible()
    in_fold = folded.evaluate(style)
    page.reload()  # a fresh Python: the cells above a plain cell run first again
    page.locator("#cell-7 [data-action=run]").click()
    expect(page.locator("#cell-7")).to_have_attribute("data-state", "done", timeout=120_000)
    assert in_fold == page.locator("#cell-7 > .run-note").evaluate(style)
    assert in_fold[:2] == ["3px", "solid"]


def test_without_javascript_the_tags_still_decide_what_is_read(browser, cells_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(cells_server.url(PAGE))
    expect(page.locator("#cell-1 .cell-output")).to_be_visible()
    expect(page.locator("#cell-2")).to_be_hidden()
    expect(page.locator("#cell-3 .cell-output")).to_be_visible()
    expect(page.locator("#cell-4 .cell-output")).to_be_hidden()
    expect(page.locator("#cell-5 .cell-code")).to_be_hidden()
    expect(page.locator("#cell-6 .cell-output")).to_be_hidden()
    page.locator("#cell-6 summary").click()
    expect(page.locator("#cell-6 .cell-output")).to_have_text(re.compile("salida plegada 23"))
    context.close()


ANSWER = "#cell-8 .cell-output"  # cell 8 checks quizzes 1 (y = 20) and 2 (y is positive: true)


def answer_quiz(page, number, value):
    quiz = page.locator("#quiz-{}".format(number))
    if value in ("true", "false"):
        quiz.locator("input[value={}]".format(value)).check()
    else:
        quiz.locator("input[type=text]").fill(value)
    quiz.locator("button[type=submit]").click()
    expect(quiz).to_have_attribute("data-state", re.compile("right|wrong"))


def test_an_answer_first_output_is_in_the_page_but_folded_before_anything_is_tried(page, cells_server):
    page.goto(cells_server.url(PAGE))
    expect(page.locator(ANSWER)).to_be_hidden()
    expect(page.locator(ANSWER)).to_have_text("y vale 20\n")  # there for a reader who opens it
    expect(page.locator("#cell-8 details[data-fold=answer] > summary")).to_contain_text("Mostrar la salida")


def test_right_answers_to_every_quiz_it_checks_reveal_it_and_a_reload_keeps_it(page, cells_server):
    page.goto(cells_server.url(PAGE))
    answer_quiz(page, 1, "20")
    expect(page.locator(ANSWER)).to_be_hidden()  # one of two is not yet all of them
    answer_quiz(page, 2, "true")
    expect(page.locator(ANSWER)).to_be_visible()
    page.evaluate("() => localStorage.removeItem(Object.keys(localStorage).find((name) => name.includes(':quiz:')))")
    page.reload()
    expect(page.locator(ANSWER)).to_be_visible()  # kept by its own record, not by the answers


def test_a_wrong_answer_keeps_it_folded(page, cells_server):
    page.goto(cells_server.url(PAGE))
    answer_quiz(page, 1, "200")
    answer_quiz(page, 2, "true")
    expect(page.locator("#quiz-1")).to_have_attribute("data-state", "wrong")
    expect(page.locator(ANSWER)).to_be_hidden()
    page.reload()
    expect(page.locator(ANSWER)).to_be_hidden()


def test_run_all_keeps_it_folded_and_the_learners_own_run_reveals_it(page, cells_server):
    page.goto(cells_server.url(PAGE))
    run_all(page)
    expect(page.locator(ANSWER)).to_be_hidden()
    assert output(page, 8) == "y vale 20\n"  # the run on the learner's behalf did happen
    page.locator("#cell-8 [data-action=run]").click()
    expect(page.locator(ANSWER)).to_be_visible()
    expect(page.locator("#cell-8")).to_have_attribute("data-state", "done", timeout=60_000)
    page.reload()
    expect(page.locator(ANSWER)).to_be_visible()


def test_the_show_control_reveals_it_and_a_reload_keeps_it(page, cells_server):
    page.goto(cells_server.url(PAGE))
    page.locator("#cell-8 details[data-fold=answer] > summary").click()
    expect(page.locator(ANSWER)).to_be_visible()
    page.reload()
    expect(page.locator(ANSWER)).to_be_visible()
