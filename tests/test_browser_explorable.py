"""Lesson 000's explorable in Chromium, with the Python worker never started."""

import json

import pytest
from playwright.sync_api import expect

from course.explorables.rule_heads import WORDS, states
from coursebuild.assets import load_strings
from coursebuild.explorables.rule_heads import panel_lines
from support import ROOT

LESSON = "000-varias-cabezas/index.html"
# The page keeps its runtime client to itself: this starts the page's own worker from its data and asks it.
CALL_IN_A_WORKER = """async (name) => {
  const data = JSON.parse(document.getElementById("page-data").textContent);
  const assets = new URL("../assets/", location.href), version = "?v=" + data.build;
  const module = data.runtime.worker === "module";
  const worker = new Worker(new URL((module ? "worker-module.mjs" : "worker-classic.js") + version, assets),
                            module ? { type: "module" } : {});
  const ask = (message) => new Promise((resolve, reject) => {
    worker.addEventListener("message", function answer(event) {
      if (event.data.type !== "result" || event.data.id !== message.id) return;
      worker.removeEventListener("message", answer);
      if (event.data.ok) resolve(event.data.value); else reject(new Error(event.data.error));
    });
    worker.postMessage(message);
  });
  await ask({ type: "init", id: 1, indexURL: new URL("../runtime/", location.href).href, prefetch: false,
              libraryURL: new URL(data.library + version, assets).href, packages: data.runtime.packages,
              files: data.runtime.files, label: "cell" });
  return ask({ type: "call", id: 2, name, args: {} });
}"""


@pytest.fixture
def explorable(page, course_server):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(course_server.url(LESSON))
    figure = page.locator("#explorable-1")
    expect(figure).to_have_attribute("data-ready", "true")
    page.requests = requests
    return figure


def test_the_explorable_is_drawn_on_load_without_the_runtime(page, explorable):
    expect(explorable.locator(".explorable-map:not([hidden]) svg.heatmap")).to_have_count(1)
    assert not [url for url in page.requests if "/runtime/" in url or "worker" in url]


def test_each_of_the_five_buttons_draws_a_different_map(page, explorable):
    drawn = []
    for index in range(5):
        explorable.locator(".map-button").nth(index).click()
        expect(explorable.locator(".map-button").nth(index)).to_have_attribute("aria-pressed", "true")
        visible = explorable.locator(".explorable-map:not([hidden])")
        expect(visible).to_have_count(1)
        expect(visible.locator("svg.heatmap")).to_be_visible()
        drawn.append(visible.locator("svg.heatmap").inner_html())
    assert len(set(drawn)) == 5
    assert not [url for url in page.requests if "/runtime/" in url]


@pytest.mark.parametrize("word", ["duerme", "persiguen"])
def test_choosing_a_row_shows_the_panel_computed_by_py(page, explorable, word):
    strings, _ = load_strings(ROOT / "site")
    expected = panel_lines(states(), WORDS.index(word), strings["es"], "es")
    explorable.get_by_label(word, exact=True).check()
    panel = explorable.locator(".panel-row:not([hidden]) li")
    expect(panel).to_have_text(expected)
    assert explorable.get_attribute("data-row") == str(WORDS.index(word))


def test_the_row_picker_moves_with_arrow_keys(page, explorable):
    explorable.get_by_label("duerme", exact=True).focus()
    page.keyboard.press("ArrowLeft")
    expect(explorable.get_by_label("gatos", exact=True)).to_be_checked()
    expect(explorable.locator(".panel-row:not([hidden]) .panel-title")).to_contain_text("«gatos»")


def test_the_worker_computes_new_states_with_the_same_py_function(page, course_server):
    page.goto(course_server.url(LESSON))
    result = page.evaluate(CALL_IN_A_WORKER, "course.explorables.rule_heads:states")
    assert json.loads(json.dumps(result)) == json.loads(json.dumps(states()))


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
