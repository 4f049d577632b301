"""Explorables in Chromium: lesson 000's rule-heads, lesson 003's three on a fixture lesson, and display markup."""

import html
import json
import re
from html.parser import HTMLParser

import pytest
from playwright.sync_api import expect
from varias_cabezas.explorables.rule_heads import WORDS

from course import numbers
from course.explorables import engine
from support import ROOT, serious_axe_findings, serve_built_site

LESSON = "000-varias-cabezas/index.html"
STRINGS = json.loads((ROOT / "site" / "i18n" / "uk.json").read_text())


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
    """The lines of a text view as CPython draws them for one combination of the discrete controls, on a page in
    `language` (whose runner sets it: the module's words follow it)."""
    numbers.set_language(language)
    explorable = engine.load(module)
    markup = explorable.draw(explorable.compute(key), key, language)[view]
    return [html.unescape(line) for line in re.findall(r'<div class="xp-line">(.*?)</div>', markup)]


def shown(figure, kind):
    return figure.locator(".xp-view-{} .xp-variant:not([hidden])".format(kind))


def test_the_explorable_is_drawn_on_load_without_the_runtime(page, explorable):
    expect(shown(explorable, "heatmap").locator("svg.heatmap")).to_have_count(1)
    assert not [url for url in page.requests if "/runtime/" in url or "worker" in url]


def test_each_of_the_six_buttons_draws_a_different_map(page, explorable):
    drawn = []
    buttons = explorable.locator(".xp-choice button")
    for index in range(6):
        buttons.nth(index).click()
        expect(buttons.nth(index)).to_have_attribute("aria-pressed", "true")
        expect(explorable.locator(".xp-choice [aria-pressed=true]")).to_have_count(1)
        visible = shown(explorable, "heatmap")
        expect(visible).to_have_count(1)
        expect(visible.locator("svg.heatmap")).to_be_visible()
        drawn.append(visible.locator("svg.heatmap").inner_html())
    assert len(set(drawn)) == 6
    assert not [url for url in page.requests if "/runtime/" in url]


@pytest.mark.parametrize("word", ["duerme", "persiguen"])
def test_choosing_a_row_shows_the_panel_computed_by_py(page, explorable, word):
    explorable.get_by_role("button", name="Una sola cabeza · las cuatro reglas sumadas").click()
    explorable.get_by_label(word, exact=True).check()
    expected = panel_lines("varias_cabezas.explorables.rule_heads", (4, WORDS.index(word)), 1, "es")
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
    explorable.get_by_role("button", name="Cabeza 2 · Concordancia de número").focus()
    page.keyboard.press("Enter")
    expect(shown(explorable, "heatmap").locator(".figure-title")).to_have_text("Cabeza 2 · Concordancia de número")


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


# Lesson 003's explorables, on a fixture lesson that uses all three

FIXTURE = ROOT / "tests" / "fixtures" / "explorables" / "lessons"
PAGE = "01-holova/index.html"
TABLE_LABEL = '<summary class="figure-table-label">Таблиця значень</summary>'


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []

    def handle_data(self, data):
        self.parts.append(data)


def text_of(markup):
    """The text a browser reads from markup (its textContent), with the table label the page writes."""
    parser = _Text()
    parser.feed(markup.replace('<summary class="figure-table-label"></summary>', TABLE_LABEL))
    return "".join(parser.parts)


def drawn(module, key, language="uk"):
    """The text of every view of one precomputed state, as CPython draws it in the page's language (the module's
    words follow it, as they do in the page's runner)."""
    numbers.set_language(language)
    explorable = engine.load(module)
    return [text_of(markup) for markup in explorable.draw(explorable.compute(key), key, language)]


@pytest.fixture(scope="module")
def fixture_server(tmp_path_factory):
    yield from serve_built_site(FIXTURE, tmp_path_factory.mktemp("explorables") / "_site")


@pytest.fixture
def fixture_page(page, fixture_server):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(fixture_server.url(PAGE))
    for number in (1, 2, 3):
        expect(page.locator("#explorable-{}".format(number))).to_have_attribute("data-ready", "true")
    page.requests = requests
    return page


def view_texts(figure):
    """The text of the variant each view shows now."""
    return figure.locator(".xp-view").evaluate_all(
        "views => views.map(view => view.querySelector('.xp-variant:not([hidden])').textContent)")


def test_the_query_presets_and_sentences_show_the_states_py_computed_before_python_loads(fixture_page):
    figure = fixture_page.locator("#explorable-1")
    assert view_texts(figure) == drawn("odna_holova.explorables.query_match", (2, 0))
    weights = figure.locator(".xp-view-table").first.locator(".xp-variant:not([hidden]) tbody td:nth-child(5)")
    expect(weights).to_have_text(["11,1%", "62,6%", "26,3%"])
    for preset, name in enumerate(["Фінанси", "Вода", "Структура", "Проти води", "Нульовий запит"]):
        for sentence, words in enumerate(["the river bank", "the money bank"]):
            figure.get_by_role("button", name=name, exact=True).click()
            figure.get_by_role("button", name=words, exact=True).click()
            expect(figure).to_have_attribute("data-key", "{}-{}".format(preset, sentence))
            assert view_texts(figure) == drawn("odna_holova.explorables.query_match", (preset, sentence))
    assert not [url for url in fixture_page.requests if "/runtime/" in url or "worker" in url]


def test_a_preset_writes_its_matrix_into_the_coefficient_boxes(fixture_page):
    figure = fixture_page.locator("#explorable-1")
    figure.get_by_role("button", name="Фінанси", exact=True).click()
    figure.get_by_text("Змінити коефіцієнти Wq").click()
    expect(figure.get_by_label("Змінити коефіцієнти Wq: рядок фінанси, стовпець фінанси")).to_have_value("6,00")
    expect(figure.get_by_label("Змінити коефіцієнти Wq: рядок структура, стовпець вода")).to_have_value("0,00")


def test_switching_sentences_keeps_banks_query_and_changes_the_keys(fixture_page):
    figure = fixture_page.locator("#explorable-1")
    bank_row = figure.locator(".xp-view-table").first.locator(".xp-variant:not([hidden]) tbody tr").last
    query_before = bank_row.locator("td").nth(0).text_content()
    tokens_before = figure.locator(".xp-view-table").first.locator(".xp-variant:not([hidden]) tbody th").all_text_contents()
    figure.get_by_role("button", name="the money bank", exact=True).click()
    expect(bank_row.locator("td").nth(0)).to_have_text(query_before)
    tokens = figure.locator(".xp-view-table").first.locator(".xp-variant:not([hidden]) tbody th").all_text_contents()
    assert tokens_before == ["the", "river", "bank"] and tokens == ["the", "money", "bank"]


def enter_coefficient(figure, row, column, text, key):
    """Open the figure's W_q editor, type `text` into the box of `row` and `column` (Ukrainian feature names), and
    press `key` (Enter or Tab); the box."""
    figure.get_by_text("Змінити коефіцієнти Wq").click()
    box = figure.get_by_label("Змінити коефіцієнти Wq: рядок {}, стовпець {}".format(row, column))
    box.fill(text)
    box.press(key)
    return box


def test_editing_a_coefficient_recomputes_in_python_with_the_same_module(fixture_page):
    figure = fixture_page.locator("#explorable-1")
    box = enter_coefficient(figure, "фінанси", "фінанси", "2,5", "Enter")
    expect(figure.locator(".xp-status")).to_have_text(STRINGS["explorable_computing"])
    expect(figure).to_have_attribute("data-shown", "live", timeout=120_000)
    expect(figure.locator(".xp-status")).to_have_text(STRINGS["explorable_computed"])
    wq = [[2.5, 0, 0], [0, 0, 0], [0, 3.75, 0], [0, 0, 0]]
    expected = engine.recompute("odna_holova.explorables.query_match", {"preset": 2, "sentence": 0, "wq": wq}, "uk")["views"]
    assert view_texts(figure) == [text_of(markup) for markup in expected]
    figure.get_by_role("button", name="the money bank", exact=True).click()
    money = engine.recompute("odna_holova.explorables.query_match", {"preset": 2, "sentence": 1, "wq": wq}, "uk")["views"]
    expect(figure.locator(".xp-view-table").first.locator(".xp-live")).to_have_text(text_of(money[2]), timeout=60_000)
    figure.get_by_role("button", name="Структура", exact=True).click()
    expect(figure).to_have_attribute("data-shown", "precomputed")
    expect(box).to_have_value("0,00")
    assert view_texts(figure) == drawn("odna_holova.explorables.query_match", (2, 1))


def test_a_preset_loses_its_highlight_once_its_matrix_is_edited_and_gets_it_back_with_its_values(fixture_page):
    figure = fixture_page.locator("#explorable-1")
    finance = figure.get_by_role("button", name="Фінанси", exact=True)
    finance.click()
    expect(finance).to_have_attribute("aria-pressed", "true")
    box = enter_coefficient(figure, "фінанси", "фінанси", "2,5", "Tab")
    presets = figure.locator(".xp-choice").first  # the presets' row (the sentences' row keeps its choice)
    expect(presets.locator("button")).to_have_count(5)
    expect(presets.locator("button[aria-pressed=true]")).to_have_count(0)  # no preset is what the figure shows
    box.fill("6,00")  # the preset's own value again
    box.press("Tab")
    expect(finance).to_have_attribute("aria-pressed", "true")
    expect(figure).to_have_attribute("data-shown", "precomputed")


def test_a_coefficient_that_is_not_a_number_is_named_and_the_figure_keeps_its_numbers(fixture_page):
    figure = fixture_page.locator("#explorable-1")
    box = enter_coefficient(figure, "вода", "вода", "два", "Tab")
    expect(figure.locator(".xp-status")).to_have_text(STRINGS["explorable_invalid"].format(text="два"))
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(figure.locator(".xp-live")).to_have_count(0)
    assert view_texts(figure) == drawn("odna_holova.explorables.query_match", (2, 0))


def test_the_two_tower_toggles_reach_all_four_states_by_keyboard(fixture_page):
    figure = fixture_page.locator("#explorable-2")
    query = figure.get_by_role("button", name="Переставити запит: Wq = swap")
    values = figure.get_by_role("button", name="Переставити значення: Wv = swap")
    weights = figure.locator(".xp-view-table .xp-variant:not([hidden]) tbody td:nth-child(4)")
    expect(weights).to_have_text(["0,2483", "0,2483", "0,5035"])
    for toggle, press, state in ((values, "Space", (0, 1)), (query, "Enter", (1, 1)), (values, "Space", (1, 0))):
        toggle.focus()
        fixture_page.keyboard.press(press)
        expect(figure).to_have_attribute("data-key", "{}-{}".format(*state))
        expect(query).to_have_attribute("aria-pressed", "true" if state[0] else "false")
        expect(values).to_have_attribute("aria-pressed", "true" if state[1] else "false")
        assert view_texts(figure) == drawn("odna_holova.explorables.match_content", state)
    expect(weights).to_have_text(["0,2483", "0,5035", "0,2483"])


def test_the_causal_toggle_masks_the_future_by_keyboard(fixture_page):
    figure = fixture_page.locator("#explorable-3")
    toggle = figure.get_by_role("button", name="Причинна маска (−∞ над діагоналлю)")
    figure.get_by_role("button", name="bank of the river", exact=True).click()
    toggle.focus()
    fixture_page.keyboard.press("Space")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(figure).to_have_attribute("data-key", "1-1")
    assert view_texts(figure) == drawn("odna_holova.explorables.causal_mask", (1, 1))
    expect(figure.locator(".xp-view-text")).to_contain_text("bank 1,00, of 0,00, the 0,00, river 0,00")
    fixture_page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert view_texts(figure) == drawn("odna_holova.explorables.causal_mask", (1, 0))


def test_the_prose_quotes_the_numbers_the_figures_show(fixture_page):
    glued = fixture_page.locator("[data-glue=qm_structure_river_river]")
    expect(glued).to_have_text("62,6%")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_fixture_page_has_no_serious_axe_violations_even_after_an_edit(browser, fixture_server, scheme):
    context = browser.new_context(bypass_csp=True, color_scheme=scheme)
    page = context.new_page()
    page.goto(fixture_server.url(PAGE))
    figure = page.locator("#explorable-1")
    expect(figure).to_have_attribute("data-ready", "true")
    page.locator("#explorable-2").get_by_role("button", name="Переставити значення: Wv = swap").click()
    page.locator("#explorable-3").get_by_role("button", name="Причинна маска (−∞ над діагоналлю)").click()
    enter_coefficient(figure, "вода", "вода", "1", "Enter")
    expect(figure).to_have_attribute("data-shown", "live", timeout=120_000)
    serious = serious_axe_findings(page)
    context.close()
    assert serious == []


def test_the_fixture_page_fits_a_375_pixel_screen_and_its_wide_tables_scroll_by_keyboard(browser, fixture_server):
    context = browser.new_context(viewport={"width": 375, "height": 800}, bypass_csp=True)
    page = context.new_page()
    page.goto(fixture_server.url(PAGE))
    expect(page.locator("#explorable-3")).to_have_attribute("data-ready", "true")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    table = page.locator("#explorable-1 .xp-view-table").first
    assert page.evaluate("(box) => box.scrollWidth > box.clientWidth", table.element_handle())
    table.focus()
    page.keyboard.press("ArrowRight")
    expect(table).not_to_have_js_property("scrollLeft", 0)
    serious = serious_axe_findings(page)
    context.close()
    assert width <= 375
    assert serious == []
