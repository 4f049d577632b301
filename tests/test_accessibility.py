"""Accessibility (axe-core in Chromium), the keyboard, security headers and the UI languages on every page."""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from support import ROOT, quiz_option, serious_axe_findings, show_a_hint_then_run_the_first_cell

LANGUAGES = ("en", "es", "uk")


def pages(site):
    return sorted(path.relative_to(site).as_posix() for path in Path(site).rglob("index.html"))


@pytest.fixture(scope="module")
def axe_browser(browser):
    # axe is injected as a script, which the pages' own policy forbids: only this context ignores it.
    context = browser.new_context(bypass_csp=True)
    yield context
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("which", ["course", "playground"])
def test_no_page_has_serious_or_critical_axe_violations(request, axe_browser, scheme, which):
    site = request.getfixturevalue(which + "_site")
    server = request.getfixturevalue(which + "_server")
    assert axe_violations(axe_browser.new_page(), server, pages(site), scheme) == {}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_english_editions_have_no_serious_axe_violations_on_a_375_pixel_screen(axe_browser, course_site,
                                                                                   course_server, scheme):
    english = [path for path in pages(course_site) if path.endswith("/en/index.html")]
    assert len(english) == 3
    page = axe_browser.new_page()
    page.set_viewport_size({"width": 375, "height": 800})
    assert axe_violations(page, course_server, english, scheme) == {}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language, count", [("es", 2), ("uk", 3)])
def test_the_spanish_and_ukrainian_editions_have_no_serious_axe_violations_on_a_375_pixel_screen(
        axe_browser, course_site, course_server, scheme, language, count):
    editions = [path for path in pages(course_site) if path[:1].isdigit() and path.endswith("/{}/index.html".format(language))]
    assert len(editions) == count, editions  # 003 and 005 in Spanish; 000, 004 and 005 in Ukrainian
    page = axe_browser.new_page()
    page.set_viewport_size({"width": 375, "height": 800})
    assert axe_violations(page, course_server, editions, scheme) == {}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_languages_index_has_no_serious_axe_violations_on_a_375_pixel_screen(axe_browser, course_site,
                                                                                   course_server, scheme):
    indexes = [path for path in pages(course_site) if path.count("/") <= 1 and not path[:1].isdigit()]
    assert indexes == ["es/index.html", "index.html", "uk/index.html"]
    page = axe_browser.new_page()
    page.set_viewport_size({"width": 375, "height": 800})
    assert axe_violations(page, course_server, indexes, scheme) == {}


def axe_violations(page, server, paths, scheme):
    """{path: [(rule, impact, first targets)]} of the serious and critical axe findings on each page, in `scheme`."""
    page.emulate_media(color_scheme=scheme)
    found = {}
    for path in paths:
        page.goto(server.url(path))
        serious = serious_axe_findings(page)
        if serious:
            found[path] = serious
    page.close()
    return found


def test_the_editor_can_be_left_with_escape_then_tab(page, playground_server):
    page.goto(playground_server.url("01-playground/index.html"))
    page.locator("#cell-1 .cell-code").click()
    editor = page.locator("#cell-1 .cm-content")
    expect(editor).to_be_focused()
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    expect(editor).not_to_be_focused()
    assert page.evaluate("() => !document.activeElement.closest('.cm-editor')")


@pytest.mark.parametrize("which", ["course", "playground"])
def test_every_page_declares_its_language_and_a_strict_content_security_policy(request, which):
    site = request.getfixturevalue(which + "_site")
    for path in pages(site):
        html = (site / path).read_text()
        policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
        assert "script-src 'self';" in policy and "unsafe" not in policy  # the worker, not the page, compiles wasm
        assert re.search(r'<html lang="(en|es|uk)">', html)
        assert not re.search(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)", html), "inline script in " + path


def used_keys():
    """Every UI string key the front end and the build look up."""
    keys = set()
    for path in (ROOT / "site").rglob("*.js"):
        keys |= set(re.findall(r"(?<![/\w])strings\.([a-z_]+)", path.read_text()))
        keys |= set(re.findall(r"strings\[\"([a-z_]+)\"\]", path.read_text()))
    for path in (ROOT / "py" / "coursebuild").rglob("*.py"):
        keys |= set(re.findall(r"strings\[\"([a-z_]+)\"\]", path.read_text()))
    keys |= set(re.findall(r"\{([a-z_]+)\}", (ROOT / "py/coursebuild/render.py").read_text())) & set(
        json.loads((ROOT / "site/i18n/en.json").read_text()))
    return keys


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_the_code_uses_exists_in_each_language(language):
    table = json.loads((ROOT / "site" / "i18n" / (language + ".json")).read_text())
    assert used_keys() - set(table) == set()
    assert all(isinstance(value, str) and value.strip() for value in table.values())


@pytest.mark.parametrize("which, path, language, words", [
    ("playground", "01-playground/index.html", "en", "Run all"),
    ("playground", "02-druhyi/index.html", "uk", "Виконати все"),
    ("course", "000-varias-cabezas/index.html", "es", "Ejecutar todo"),
    ("course", "000-varias-cabezas/en/index.html", "en", "Run all"),
])
def test_a_page_speaks_its_lessons_language_with_no_placeholder_left(request, page, which, path, language, words):
    server = request.getfixturevalue(which + "_server")
    page.goto(server.url(path))
    assert page.locator("html").get_attribute("lang") == language
    expect(page.locator(".runtime-bar")).to_contain_text(words)
    text = page.evaluate("""() => { const copy = document.body.cloneNode(true);
        copy.querySelectorAll(".cell-code, pre.code, script").forEach((code) => code.remove());  // code may use braces
        return copy.textContent; }""")
    assert not re.search(r"\{[a-z_]+\}", text)


@pytest.mark.parametrize("which", ["course", "playground"])
def test_every_page_fits_a_375_pixel_screen_without_scrolling_sideways(request, browser, which):
    site = request.getfixturevalue(which + "_site")
    server = request.getfixturevalue(which + "_server")
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    wide = {}
    for path in pages(site):
        page.goto(server.url(path))
        width = page.evaluate("() => document.documentElement.scrollWidth")
        if width > 375:
            wide[path] = width
    context.close()
    assert wide == {}


def test_on_a_375_pixel_touch_screen_the_runtime_bar_shows_its_whole_sentence_and_a_tap_on_it_starts_nothing(
        browser, playground_server):
    context = browser.new_context(viewport={"width": 375, "height": 667}, has_touch=True, is_mobile=True)
    page = context.new_page()
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(playground_server.url("01-playground/index.html"))
    bar = page.locator(".runtime-bar")
    status = bar.locator(".runtime-status")
    expect(status).to_have_text(re.compile(r"Python starts when you use a cell: [\d.]+ MB the first time"))
    assert "point" not in status.inner_text()  # a finger points at nothing
    assert status.evaluate("(element) => element.scrollWidth <= element.clientWidth")  # wrapped, not cut
    buttons = bar.locator(".button")
    assert buttons.nth(0).bounding_box()["y"] == buttons.nth(1).bounding_box()["y"]  # Run all and Stop: one line
    assert bar.bounding_box()["height"] <= 0.2 * 667, bar.bounding_box()  # the bar leaves the page its room
    status.tap()
    page.wait_for_timeout(500)
    assert page.locator("body").get_attribute("data-runtime") == "idle"
    assert not [url for url in requests if "/runtime/" in url or "/worker-" in url]
    # While Python downloads, the bar's sentence says how much of how much, whole.
    page.locator("#cell-1 [data-action=run]").tap()
    expect(status).to_have_text(re.compile(r"Downloading Python: [\d.]+ (kB|MB) of [\d.]+ MB|Starting|ready"),
                                timeout=60_000)
    assert status.evaluate("(element) => element.scrollWidth <= element.clientWidth")
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_axe_violations_after_a_learner_has_used_the_page(axe_browser, course_server, scheme):
    page = axe_browser.new_page()
    page.emulate_media(color_scheme=scheme)
    page.goto(course_server.url("000-varias-cabezas/index.html"))
    page.locator("#cell-3 .cell-code").click()
    expect(page.locator("#cell-3 .cm-content")).to_be_focused()
    page.keyboard.type("# edited\n")
    expect(page.locator("#cell-3 .out-stale")).to_be_visible()
    quiz_option(page.locator("#quiz-1"), "Hacia gatos, hacia sí misma.").check()  # a wrong answer: its hint shows
    page.locator("#quiz-1 button[type=submit]").click()
    page.locator("#quiz-5 input").fill("not a number")
    page.locator("#quiz-5 button[type=submit]").click()
    exercise = page.locator("#exercise-multi_head")
    exercise.locator("[data-action=check]").click()
    expect(exercise).to_have_attribute("data-state", "failed", timeout=120_000)
    show_a_hint_then_run_the_first_cell(page, exercise)
    serious = serious_axe_findings(page)
    page.close()
    assert serious == []
