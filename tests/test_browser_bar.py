"""The runtime bar on a phone (375 px, a touch screen) in Chromium, in the light and the dark theme: its sentence is
whole in every state it reaches (the download's two sizes, the running cell and its queue), wrapped rather than cut;
a tap on it starts nothing; it says nothing of pointing at a cell; axe finds nothing serious in it (issue 60 item 3).
Each state is shot to /tmp/bar-<state>-<theme>.png for a reader to look at."""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from support import ROOT, Server, build_one_lesson, serious_axe_findings

PHONE = {"viewport": {"width": 375, "height": 667}, "has_touch": True, "is_mobile": True,
         "bypass_csp": True}  # axe is injected as a script, which the pages' own policy forbids
SCHEMES = ("light", "dark")
BAR = "document.querySelector('.runtime-bar')"
# What a sentence says when it asks for a mouse: point at, hover, in each language of the site.
POINTING = re.compile(r"point|hover|mouse|señal|apunt|ratón|cursor|навод|миш|курсор", re.I)


def sentence_box(page):
    """The bar's sentence as laid out: its text, whether it is cut (wider or taller than its box, or ending in an
    ellipsis), and whether the whole of it is inside the window."""
    return page.locator(".runtime-status").evaluate("""(status) => {
        const style = getComputedStyle(status), box = status.getBoundingClientRect();
        return {text: status.textContent, cut: status.scrollWidth > status.clientWidth
                  || status.scrollHeight > status.clientHeight || style.textOverflow === "ellipsis",
                inside: box.left >= 0 && box.right <= innerWidth && box.bottom <= innerHeight && box.top >= 0};
    }""")


def look_at(page, state):
    """In both themes: the bar's sentence is whole and inside the window, axe finds nothing serious in the bar, and a
    screenshot is taken. Returns the sentence."""
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        laid = sentence_box(page)
        assert not laid["cut"] and laid["inside"], (state, scheme, laid)
        assert serious_axe_findings(page, BAR) == [], (state, scheme)
        page.screenshot(path="/tmp/bar-{}-{}.png".format(state, scheme))
    return laid["text"]


def runtime_requests(requests):
    return [url for url in requests if "/runtime/" in url or "/worker-" in url]


def largest_runtime_file(site, slug):
    html = (Path(site) / slug / "index.html").read_text()
    data = json.loads(re.search(r'id="page-data">(.*?)</script>', html, re.S).group(1))
    return max(data["runtime"]["files"], key=lambda file: file["size"])["name"]


def test_on_a_phone_the_bar_says_how_much_is_downloaded_of_how_much_whole_and_a_tap_on_it_starts_nothing(
        browser, playground_server, playground_site):
    context = browser.new_context(**PHONE)
    held = []
    largest = largest_runtime_file(playground_site, "01-playground")
    # Every runtime file but the largest arrives: the download stays part way, with both sizes to say.
    failing = []

    def answer(route):
        if failing:
            route.abort()
        elif route.request.url.split("?")[0].endswith("/" + largest):
            held.append(route)
        else:
            route.continue_()

    context.route(re.compile(r".*/runtime/.*"), answer)
    page = context.new_page()
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(playground_server.url("01-playground/index.html"))
    status = page.locator(".runtime-status")
    expect(status).to_have_text(re.compile(r"^Python starts when you use a cell: [\d.]+ MB the first time"))
    assert not POINTING.search(look_at(page, "idle"))
    # A tap on the sentence, or on the bar beside its buttons, is no request to run: nothing starts.
    status.tap()
    page.locator(".runtime-bar").tap(position={"x": 3, "y": 3})
    assert page.locator("body").get_attribute("data-runtime") == "idle"  # a start would be "loading" at once
    assert runtime_requests(requests) == []
    page.locator("#cell-1 [data-action=run]").tap()
    expect(status).to_have_text(re.compile(r"^Downloading Python: [\d.]+ (kB|MB) of [\d.]+ MB$"), timeout=60_000)
    loaded, total = re.findall(r"[\d.]+ (?:kB|MB)", look_at(page, "download"))
    assert loaded != total
    assert page.locator(".runtime-progress").is_visible()
    # The editor opened by a finger says nothing of Tab and Esc: a phone has no keys to press.
    page.locator("#cell-1 .cell-code").tap()
    expect(page.locator("#cell-1 .cm-content")).to_be_visible(timeout=30_000)
    expect(page.locator(".editor-keys")).to_have_count(0)
    # The held file fails: the bar says what failed and what to do, whole, however long the sentence.
    failing.append(True)
    for route in held:
        route.abort()
    expect(page.locator("body")).to_have_attribute("data-runtime", "failed", timeout=90_000)
    assert look_at(page, "failed").startswith("Python could not start")
    context.close()


def test_on_a_phone_the_bar_says_which_cell_runs_and_how_many_wait_whole(browser, playground_server):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(playground_server.url("01-playground/index.html"))
    status = page.locator(".runtime-status")
    page.locator("#cell-1 [data-action=run]").tap()
    expect(page.locator("#cell-1")).to_have_attribute("data-state", "done", timeout=120_000)
    expect(status).to_have_text("Python is ready.")
    look_at(page, "ready")
    page.locator("#cell-1 .cell-code").tap()
    editor = page.locator("#cell-1 .cm-content")
    expect(editor).to_be_visible(timeout=30_000)
    editor.press("Control+a")
    page.keyboard.insert_text("while True:\n    pass")
    page.locator("[data-action=run-all]").tap()  # the bar's own button runs, so it starts Python too
    expect(status).to_have_text(re.compile(r"^Python is running cell 1; \d+ more waiting\.$"), timeout=30_000)
    look_at(page, "running")
    page.locator("[data-action=stop]").tap()
    expect(page.locator("#cell-1")).not_to_have_attribute("data-state", "running", timeout=60_000)
    look_at(page, "stopped")
    context.close()


def test_where_a_keyboard_is_likely_the_editor_says_how_to_leave_it_and_on_a_touch_screen_it_does_not(
        browser, playground_server):
    for touch, shown in ((False, 1), (True, 0)):
        context = browser.new_context(viewport={"width": 375, "height": 667}, has_touch=touch, is_mobile=touch)
        page = context.new_page()
        page.goto(playground_server.url("01-playground/index.html"))
        code = page.locator("#cell-1 .cell-code")
        code.tap() if touch else code.click()
        expect(page.locator("#cell-1 .cm-content")).to_be_visible(timeout=30_000)
        expect(page.locator(".editor-keys")).to_have_count(shown)
        context.close()


@pytest.fixture(scope="module")
def editions_server(tmp_path_factory):
    """Lesson 004 alone, in its three editions: Spanish (its own), Ukrainian and English."""
    server = Server(build_one_lesson(tmp_path_factory, ROOT / "lessons" / "004-ejercicios-atencion"))
    yield server
    server.close()


@pytest.mark.parametrize("path, language", [("004-ejercicios-atencion/index.html", "es"),
                                            ("004-ejercicios-atencion/uk/index.html", "uk"),
                                            ("004-ejercicios-atencion/en/index.html", "en")])
def test_on_a_touch_screen_every_languages_bar_says_nothing_of_pointing_and_reads_whole(
        browser, editions_server, path, language):
    strings = json.loads((ROOT / "site" / "i18n" / (language + ".json")).read_text())
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(editions_server.url(path))
    opening = strings["runtime_idle"].split("{size}")[0]
    expect(page.locator(".runtime-status")).to_have_text(re.compile("^" + re.escape(opening) + r"[\d.,]+ MB"))
    assert not POINTING.search(look_at(page, "idle-" + language))
    context.close()


def test_no_language_asks_for_a_pointer_in_the_bar_and_ukrainian_uses_the_typographic_apostrophe():
    for language in ("en", "es", "uk"):
        strings = json.loads((ROOT / "site" / "i18n" / (language + ".json")).read_text())
        bar = {key: text for key, text in strings.items() if key.startswith("runtime_")}
        assert bar and not {key for key, text in bar.items() if POINTING.search(text)}, language
        if language == "uk":
            assert not [key for key, text in bar.items() if "'" in text]


def test_the_stylesheet_closes_every_block_it_opens_and_no_more():
    """A '}' with no block open joins the next rule's selector, which then drops that rule (the dev banner's was)."""
    text = re.sub(r"/\*.*?\*/", "", (ROOT / "site" / "style.css").read_text(), flags=re.S)
    text = re.sub(r"\"[^\"]*\"|'[^']*'", "", text)
    depth = 0
    for line, row in enumerate(text.splitlines(), 1):
        for character in row:
            depth += {"{": 1, "}": -1}.get(character, 0)
            assert depth >= 0, "a closing brace with no block open, line {} (comments and strings left out)".format(line)
    assert depth == 0
