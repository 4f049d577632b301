"""Hidden cells stay the page's business: after Stop, a later cell runs without a hidden cell's traceback, number or
a bar left "running" (the fixture lesson tests/fixtures/hidden, and lesson 004 in English, built alone)."""

import re

import pytest
from playwright.sync_api import expect

from coursebuild import cli
from support import ROOT, Server, build_site

PAGE = "004-ejercicios-atencion/en/index.html"
FIXTURE = ROOT / "tests" / "fixtures" / "hidden" / "lessons"
# Every text the runtime bar shows, with the hidden cell running at that moment (its id), if any.
WATCH_BAR = """() => { window.barSaid = []; const status = document.querySelector('.runtime-status');
    new MutationObserver(() => {
        const hidden = document.querySelector('section.cell[data-tags~=remove-cell][data-state=running]');
        window.barSaid.push({text: status.textContent, hidden: hidden ? hidden.id : null});
    }).observe(status, {childList: true, characterData: true, subtree: true}); }"""


@pytest.fixture(scope="module")
def fixture_server(tmp_path_factory):
    """The fixture lesson: a loop that runs until Stop, a hidden cell that reads what it binds at its end, and a
    hidden cell that needs nothing from it, before cell 3."""
    server = Server(build_site(FIXTURE, tmp_path_factory.mktemp("hidden-fixture") / "_site"))
    yield server
    server.close()


@pytest.fixture(scope="module")
def lesson_server(tmp_path_factory):
    """Lesson 004 alone, built and served."""
    out = tmp_path_factory.mktemp("hidden") / "_site"
    assert cli.main(["--lessons", str(ROOT / "lessons"), "--out", str(out), "build", "--lesson",
                     "ejercicios-atencion"]) == 0
    server = Server(out)
    yield server
    server.close()


def cell(page, label):
    """The cell the learner knows as `label` ("Cell 15")."""
    return page.locator('section.cell[aria-label="{}"]'.format(label))


def stop_the_loop(page):
    """Run the fixture's loop (cell 1) and Stop it."""
    loop = cell(page, "Cell 1")
    loop.locator("[data-action=run]").click()
    expect(loop.locator(".cell-output[data-origin=live] .progress-text")).to_be_visible(timeout=120_000)
    page.locator("[data-action=stop]").click()
    expect(loop).to_have_attribute("data-state", "stopped", timeout=30_000)


def test_after_stop_in_a_loop_a_later_cell_skips_the_hidden_cell_that_reads_it_and_the_bar_names_only_visible_cells(
        page, fixture_server):
    page.goto(fixture_server.url("01-hidden/index.html"))
    page.evaluate(WATCH_BAR)
    stop_the_loop(page)
    asked = cell(page, "Cell 3")  # cell 2 and both hidden cells come first; the first hidden one reads `trained`
    asked.locator("[data-action=run]").click()
    expect(asked).to_have_attribute("data-state", "done", timeout=60_000)
    expect(asked.locator(".cell-output .out").first).to_have_text("extra is 7")
    expect(page.locator(".runtime-status")).to_have_text("Python is ready.")
    expect(page.locator("[data-action=stop]")).to_be_disabled()
    expect(asked).to_contain_text("Cell 1 was stopped; run it to the end")
    expect(page.locator("section.cell[data-tags~=remove-cell]:not([hidden])")).to_have_count(0)
    expect(page.locator(".out-error")).to_have_count(0)  # no traceback, of a hidden cell or any other
    assert not re.search(r"\b[12]\.1\b", page.locator("main").inner_text()), "a message named a hidden cell"
    said = page.evaluate("window.barSaid")
    assert not [entry for entry in said if re.search(r"[Cc]ells? [\d, ]*\b\d+\.\d", entry["text"])], said
    # While the hidden cell that needs nothing from the loop runs, the bar names the visible cell it prepares.
    serving = [entry["text"] for entry in said if entry["hidden"]]
    assert serving and set(serving) == {"Python is running cell 3."}, said


def test_a_hidden_cell_stopped_while_it_ran_is_run_again_first_and_never_named(page, fixture_server):
    page.goto(fixture_server.url("01-hidden/index.html"))
    stop_the_loop(page)
    asked = cell(page, "Cell 3")
    asked.locator("[data-action=run]").click()
    hidden = page.locator("section.cell[data-tags~=remove-cell]").nth(1)  # the slow one, which binds `extra`
    expect(hidden).to_have_attribute("data-state", "running", timeout=60_000)
    page.locator("[data-action=stop]").click()
    expect(hidden).to_have_attribute("data-state", "stopped", timeout=30_000)
    expect(page.locator(".runtime-status")).to_have_text("Python is ready.")
    asked.locator("[data-action=run]").click()  # the learner cannot run the hidden cell: the page does, first
    expect(asked).to_have_attribute("data-state", "done", timeout=60_000)
    expect(asked.locator(".cell-output .out").first).to_have_text("extra is 7")
    expect(page.locator("section.cell[data-tags~=remove-cell]:not([hidden])")).to_have_count(0)
    assert not re.search(r"\b[12]\.1\b", page.locator("main").inner_text()), "a message named a hidden cell"


def test_after_stop_in_a_training_the_next_cell_runs_without_a_hidden_cells_traceback_or_number(page, lesson_server):
    page.goto(lesson_server.url(PAGE))
    page.evaluate("""() => { window.barSaid = []; const status = document.querySelector('.runtime-status');
        new MutationObserver(() => window.barSaid.push(status.textContent)).observe(status, {childList: true}); }""")
    training = cell(page, "Cell 15")
    training.locator("[data-action=run]").click()  # the cells above run first, hidden ones among them
    expect(training).to_have_attribute("data-state", "running", timeout=900_000)
    expect(training.locator(".progress-text")).to_contain_text("Epoch 1/6", timeout=120_000)
    page.locator("[data-action=stop]").click()
    expect(training).to_have_attribute("data-state", "stopped", timeout=30_000)
    after = cell(page, "Cell 16")  # the next training: hidden cell 15.1, which reads cell 15's result, comes first
    after.locator("[data-action=run]").click()
    expect(after.locator(".progress-text")).to_contain_text("Epoch 1/6", timeout=120_000)
    expect(page.locator(".runtime-status")).to_have_text("Python is running cell 16.")
    expect(after.locator(".skip-note")).to_contain_text("Cell 15 above was stopped")
    page.locator("[data-action=stop]").click()  # and once more: the bar must not stay "running" after it
    expect(after).to_have_attribute("data-state", "stopped", timeout=30_000)
    expect(cell(page, "Cell 15.1")).to_be_hidden()
    expect(page.locator("section.cell[data-tags~=remove-cell]:not([hidden])")).to_have_count(0)
    assert "15.1" not in after.text_content()
    expect(page.locator(".runtime-status")).to_have_text("Python is ready.")
    expect(page.locator("[data-action=stop]")).to_be_disabled()
    named = [said for said in page.evaluate("window.barSaid") if re.search(r"Cell \d+\.\d", said)]
    assert named == [], "the bar named a hidden cell"
