"""Lesson 005 in Chromium: the three trainings and the loss curves reproduce the build's output."""

import re
import shutil

import pytest
from playwright.sync_api import expect

from coursebuild.lesson import read_lesson
from support import ROOT, Server, build_site, serious_axe_findings

SLUG = "005-position-and-block"
FOLDER = ROOT / "lessons" / SLUG
LESSON = read_lesson(FOLDER / "lesson.md")[0]
FINISHED = re.compile("done|failed")
PAGES = [""] + sorted(path.name.split(".")[1] + "/" for path in FOLDER.glob("lesson.*.md"))  # lesson.md, then editions


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    lessons = tmp_path_factory.mktemp("lessons")
    shutil.copytree(FOLDER, lessons / SLUG, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    running = Server(build_site(lessons, tmp_path_factory.mktemp("site")))
    yield running
    running.close()


def number(key):
    """The page number of the cell with this ':id:'."""
    return next(cell.number for cell in LESSON.cells if cell.key == key)


@pytest.mark.parametrize("edition", PAGES)
def test_the_three_trainings_and_their_curves_reproduce_the_build_in_the_browser(page, server, edition):
    page.goto(server.url(SLUG + "/" + edition + "index.html"))
    keys = ("train-positions", "train-no-positions", "train-bare", "loss-curves")
    built = {key: page.locator("#cell-{} .cell-output".format(number(key))).text_content() for key in keys}
    for key in keys:
        cell = page.locator("#cell-{}".format(number(key)))
        cell.locator("[data-action=run]").click()  # the first one runs every cell above it first
        expect(cell).to_have_attribute("data-state", FINISHED, timeout=300_000)
        expect(cell).to_have_attribute("data-state", "done")
        assert cell.locator(".cell-output").text_content() == built[key], key


@pytest.mark.parametrize("edition", PAGES)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_page_has_no_serious_axe_violations_and_fits_a_375_pixel_screen(browser, server, scheme, edition):
    context = browser.new_context(bypass_csp=True, viewport={"width": 375, "height": 800}, color_scheme=scheme)
    page = context.new_page()  # axe is injected as a script, which the page's own policy forbids: only here
    page.goto(server.url(SLUG + "/" + edition + "index.html"))
    serious = serious_axe_findings(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert serious == []
    assert width <= 375


@pytest.mark.parametrize("edition", PAGES)
def test_every_display_formula_fits_the_column_of_a_375_pixel_screen(browser, server, edition):
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    page.goto(server.url(SLUG + "/" + edition + "index.html"))
    wide = page.evaluate("""() => [...document.querySelectorAll('math[display=block]')]
        .filter(math => math.scrollWidth > math.clientWidth)
        .map(math => [math.scrollWidth, math.clientWidth, math.textContent.slice(0, 40)])""")
    context.close()
    assert wide == []
