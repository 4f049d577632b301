"""Explorables in Chromium: lesson 000's rule-heads with the Python worker never started, and display markup."""

import html
import re

import pytest
from playwright.sync_api import expect

from course.explorables import engine
from course.explorables.rule_heads import WORDS

LESSON = "000-varias-cabezas/index.html"


@pytest.fixture
def explorable(page, course_server):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(course_server.url(LESSON))
    figure = page.locator("#explorable-1")
    expect(figure).to_have_attribute("data-ready", "true")
    page.requests = requests
    return figure


def panel_lines(module, key, view, language):
    """The lines of a text view as CPython draws them for one combination of the discrete controls."""
    explorable = engine.load(module)
    markup = explorable.draw(explorable.compute(key), key, language)[view]
    return [html.unescape(line) for line in re.findall(r'<div class="xp-line">(.*?)</div>', markup)]


def shown(figure, kind):
    return figure.locator(".xp-view-{} .xp-variant:not([hidden])".format(kind))


def test_the_explorable_is_drawn_on_load_without_the_runtime(page, explorable):
    expect(shown(explorable, "heatmap").locator("svg.heatmap")).to_have_count(1)
    assert not [url for url in page.requests if "/runtime/" in url or "worker" in url]


def test_each_of_the_five_buttons_draws_a_different_map(page, explorable):
    drawn = []
    buttons = explorable.locator(".xp-choice button")
    for index in range(5):
        buttons.nth(index).click()
        expect(buttons.nth(index)).to_have_attribute("aria-pressed", "true")
        expect(explorable.locator(".xp-choice [aria-pressed=true]")).to_have_count(1)
        visible = shown(explorable, "heatmap")
        expect(visible).to_have_count(1)
        expect(visible.locator("svg.heatmap")).to_be_visible()
        drawn.append(visible.locator("svg.heatmap").inner_html())
    assert len(set(drawn)) == 5
    assert not [url for url in page.requests if "/runtime/" in url]


@pytest.mark.parametrize("word", ["duerme", "persiguen"])
def test_choosing_a_row_shows_the_panel_computed_by_py(page, explorable, word):
    explorable.get_by_role("button", name="Una cabeza: las cuatro reglas sumadas").click()
    explorable.get_by_label(word, exact=True).check()
    expected = panel_lines("rule_heads", (4, WORDS.index(word)), 1, "es")
    expect(shown(explorable, "text").locator(".xp-line")).to_have_text(expected)
    assert explorable.get_attribute("data-key") == "4-{}".format(WORDS.index(word))


def test_the_outlined_row_of_the_heatmap_follows_the_chosen_word(page, explorable):
    explorable.get_by_label("persiguen", exact=True).check()
    svg = shown(explorable, "heatmap").locator("svg.heatmap")
    top = float(svg.locator(".hm-cell").first.get_attribute("y"))
    height = float(svg.locator(".hm-highlight").get_attribute("height"))
    expect(svg.locator(".hm-highlight")).to_have_attribute("y", str(int(top + WORDS.index("persiguen") * height)))


def test_the_row_picker_moves_with_arrow_keys_and_the_map_buttons_with_enter(page, explorable):
    explorable.get_by_label("duerme", exact=True).focus()
    page.keyboard.press("ArrowLeft")
    expect(explorable.get_by_label("gatos", exact=True)).to_be_checked()
    expect(shown(explorable, "text").locator(".xp-text-title")).to_contain_text("«gatos»")
    explorable.get_by_role("button", name="Concordancia de número").focus()
    page.keyboard.press("Enter")
    expect(shown(explorable, "heatmap").locator(".figure-title")).to_have_text("Concordancia de número")


def test_display_markup_is_whitelisted_at_build_time_and_in_the_browser(page, playground_server):
    page.goto(playground_server.url("01-playground/index.html"))
    cell = page.locator("#cell-6")
    built = cell.locator(".cell-output").inner_html()
    assert "script" not in built and "onload" not in built and "<img" not in built and "&lt;b&gt;a" in built
    cell.locator("[data-action=run]").click()
    expect(cell).to_have_attribute("data-state", "done", timeout=120_000)
    live = cell.locator(".cell-output")
    expect(live.locator("svg.heatmap")).to_have_count(1)
    assert live.locator("script, img, [onload]").count() == 0
    expect(live.locator("summary")).to_have_text("Table of the values")
    assert page.dialogs == []
