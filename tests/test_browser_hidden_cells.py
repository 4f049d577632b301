"""Hidden cells stay the page's business: after Stop, a later cell runs without a hidden cell's traceback, number or
a bar left "running" (lesson 004 in English, built alone)."""

import re

import pytest
from playwright.sync_api import expect

from coursebuild import cli
from support import ROOT, Server

PAGE = "004-ejercicios-atencion/en/index.html"


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
    expect(page.locator(".runtime-status")).to_have_text("Cell 16: running…")
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
