"""Offline use, one runtime download per site, rebuilds, and saved work moving between browsers."""

import json
import shutil

import pytest
from playwright.sync_api import expect

from support import ROOT, Server, build_site, edit_cell, store_the_course_offline

PLAYGROUND = ROOT / "tests" / "fixtures" / "playground" / "lessons"
ORDER = "(inputs) => inputs.map((input) => input.value)"  # the option ids of a quiz, in the order shown


def run(page, selector):
    page.locator(selector + " [data-action=run], " + selector + " [data-action=check]").first.click()
    expect(page.locator(selector)).to_have_attribute("data-state", "done", timeout=120_000)


def runtime_responses(page):
    seen = []
    page.on("response", lambda response: "/runtime/" in response.url and seen.append(response))
    return seen


def cache_names(page):
    return sorted(page.evaluate("() => caches.keys()"))


def wait_until_dropped(page, name, limit_ms=20_000):
    """Wait until the cache `name` is gone, following the service worker's lifecycle events.

    A new service worker drops the caches of earlier builds while it activates; its state turns
    "activated" only once that is done. So each turn waits for the next lifecycle event, no timer.
    """
    dropped = page.evaluate("""async ([name, limit]) => {
        const registration = await navigator.serviceWorker.getRegistration();
        const next = () => new Promise((resolve) => {
          const active = registration.active && registration.active.state !== "activated" ? registration.active : null;
          const worker = registration.installing || registration.waiting || active;
          if (worker) worker.addEventListener("statechange", resolve, { once: true });
          else registration.addEventListener("updatefound", resolve, { once: true });
        });
        const gaveUp = new Promise((resolve) => setTimeout(() => resolve("gave up"), limit));
        while (await caches.has(name)) if (await Promise.race([next(), gaveUp]) === "gave up") return false;
        return true;
    }""", [name, limit_ms])
    assert dropped, cache_names(page)


@pytest.fixture
def fresh_context(browser):
    context = browser.new_context()
    yield context
    context.close()


def test_a_second_lesson_takes_the_runtime_from_the_service_worker(fresh_context, playground_site):
    server = Server(playground_site)
    try:
        page = fresh_context.new_page()
        page.goto(server.url("01-playground/index.html"))
        run(page, "#cell-1")
        first = sum(size for _, size in server.served("/runtime/"))
        assert first > 1_000_000
        second = runtime_responses(page)
        page.goto(server.url("02-druhyi/index.html"))
        run(page, "#cell-1")
        assert page.locator("#cell-1 .cell-output").text_content() == "2 слова: увага, голова\n"
        assert sum(size for _, size in server.served("/runtime/")) == first  # not one more byte from the network
        assert second and all(response.from_service_worker for response in second)
    finally:
        server.close()


def test_the_course_works_offline_after_storing_it(fresh_context, course_site):
    server = Server(course_site)
    page = fresh_context.new_page()
    store_the_course_offline(page, server)
    expect(page.locator(".offline-status")).to_contain_text("ready offline")
    server.close()
    page.reload()
    expect(page.locator("h1")).to_have_text("Attention and transformers")
    page.goto(server.url("es/index.html"))  # the index in another language, one folder down, finds the same store
    expect(page.locator("h1")).to_have_text("Atención y transformers")
    expect(page.locator(".offline")).to_have_attribute("data-state", "ready")
    expect(page.locator(".offline-status")).to_contain_text("listo para usarse sin conexión")
    page.goto(server.url("000-varias-cabezas/index.html"))
    expect(page.locator("h1")).to_have_text("Varias cabezas, varios repartos")
    run(page, "#cell-1")
    assert "todas las filas suman 1: True" in page.locator("#cell-1 .cell-output").inner_text()
    exercise = page.locator("#exercise-multi_head")
    exercise.locator(".cell-code").click()
    exercise.locator(".cm-content").press("Control+a")
    page.keyboard.insert_text((ROOT / "lessons/000-varias-cabezas/exercises/multi_head/solution.py").read_text())
    run(page, "#exercise-multi_head")
    expect(exercise.locator(".check-verdict")).to_contain_text("Superado")


def test_free_the_space_drops_the_course_caches(fresh_context, playground_server):
    page = fresh_context.new_page()
    store_the_course_offline(page, playground_server)
    assert len(cache_names(page)) == 2
    page.locator("[data-action=offline-free]").click()
    expect(page.locator(".offline")).to_have_attribute("data-state", "online")
    expect(page.locator(".offline-status")).to_contain_text("Not stored for offline use yet")
    assert not [name for name in cache_names(page) if name.startswith("course-runtime-")]
    kept = page.evaluate("""async () => { let n = 0; for (const name of await caches.keys())
        n += (await (await caches.open(name)).keys()).length; return n; }""")
    assert kept <= 1  # at most offline.json, fetched again to say what is stored


def test_a_new_build_drops_the_old_site_cache_and_keeps_the_runtime(fresh_context, tmp_path):
    lessons = tmp_path / "lessons"
    shutil.copytree(PLAYGROUND, lessons)
    site = build_site(lessons, tmp_path / "_site")
    old = json.loads((site / "offline.json").read_text())
    server = Server(site)
    try:
        page = fresh_context.new_page()
        page.goto(server.url("01-playground/index.html"))
        run(page, "#cell-1")
        page.goto(server.url("02-druhyi/index.html"))
        # The runtime is cached, so this page starts Python when idle. A page left while its Python still loads
        # leaves the service worker answers the browser never finishes (Chromium), and the next build's worker
        # waits for them before it takes over (here, longer than the 20 s allowed below): so the deploy comes after the start.
        expect(page.locator("body")).to_have_attribute("data-runtime", "ready", timeout=120_000)
        # Both exist once a cell has run: the service worker opens each cache before it fetches into it.
        assert cache_names(page) == sorted([old["runtimeCache"], old["siteCache"]])
        lesson = lessons / "02-druhyi" / "lesson.md"
        lesson.write_text(lesson.read_text().replace("Комірка на другій сторінці.", "Новий текст після збирання."))
        build_site(lessons, site)
        new = json.loads((site / "offline.json").read_text())
        assert new["runtimeCache"] == old["runtimeCache"] and new["siteCache"] != old["siteCache"]
        runtime_bytes = sum(size for _, size in server.served("/runtime/"))
        page.reload()
        expect(page.locator("main p").first).to_have_text("Новий текст після збирання.")
        wait_until_dropped(page, old["siteCache"])  # the new worker dropped the old site cache
        assert new["runtimeCache"] in cache_names(page)  # and kept the runtime
        run(page, "#cell-1")
        assert new["siteCache"] in cache_names(page)  # and fills its own from this build's files
        assert sum(size for _, size in server.served("/runtime/")) == runtime_bytes
    finally:
        server.close()


def test_export_clear_and_import_bring_the_work_back(fresh_context, course_server, tmp_path):
    page = fresh_context.new_page()
    page.goto(course_server.url("000-varias-cabezas/index.html"))
    page.locator("#quiz-2").get_by_label("Falso").check()
    page.locator("#quiz-2 button[type=submit]").click()
    edit_cell(page, 4, "print('mine')")  # cell 4 (einops) is the first whose code the page shows
    shown = {number: page.locator("#quiz-{} .quiz-inputs input".format(number)).evaluate_all(ORDER) for number in (1, 3)}
    page.goto(course_server.url("index.html"))
    with page.expect_download() as download:
        page.locator("[data-action=export]").click()
    receipt = tmp_path / "work.json"
    download.value.save_as(receipt)
    saved = json.loads(receipt.read_text())
    assert saved["format"] == "attention-course-work" and saved["version"] == 1
    assert [entry["code"] for name, entry in saved["entries"].items() if name.endswith(":cell:einops")] == ["print('mine')"]
    assert [name for name in saved["entries"] if name.startswith("course:v1:000-varias-cabezas:seed:")]  # the order's
    page.evaluate("() => localStorage.clear()")
    page.locator("input[type=file]").set_input_files(str(receipt))
    expect(page.locator(".work-status")).to_contain_text(
        "Saved items in the file: {}; added or replaced here: ".format(len(saved["entries"])))
    page.goto(course_server.url("000-varias-cabezas/index.html"))
    expect(page.locator("#cell-4 .cell-code code")).to_have_text("print('mine')")
    expect(page.locator("#quiz-2 .quiz-verdict")).to_have_text("Correcto.")
    # The seed came back with the work: each choice quiz shows its options in the order this learner saw them.
    assert {number: page.locator("#quiz-{} .quiz-inputs input".format(number)).evaluate_all(ORDER)
            for number in (1, 3)} == shown


@pytest.mark.parametrize("content, reason", [
    ("{not json", "the file is not JSON."),
    ('{"format": "something-else", "entries": {}}', "not a work receipt of this course"),
    ('{"format": "attention-course-work", "version": 9, "entries": {}}', "version 9"),
    ('{"format": "attention-course-work", "version": 1, "entries": {"evil": {}}}', "does not know (evil)"),
])
def test_a_malformed_or_foreign_receipt_is_refused_and_nothing_changes(fresh_context, course_server, tmp_path,
                                                                          content, reason):
    page = fresh_context.new_page()
    page.goto(course_server.url("index.html"))
    page.evaluate("() => localStorage.setItem('course:v1:000-varias-cabezas:quiz:1', '{\"answer\": 0}')")
    before = page.evaluate("() => JSON.stringify(localStorage)")
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    page.locator("input[type=file]").set_input_files(str(bad))
    expect(page.locator(".work-status")).to_contain_text("Nothing was changed: ")
    expect(page.locator(".work-status")).to_contain_text(reason)
    assert page.evaluate("() => JSON.stringify(localStorage)") == before


def test_a_page_opened_from_disk_shows_its_explorable(page, course_site):
    page.goto((course_site / "000-varias-cabezas" / "index.html").as_uri())
    explorable = page.locator("#explorable-1")
    expect(explorable).to_have_attribute("data-ready", "true")
    explorable.locator(".xp-choice button").nth(4).click()
    expect(explorable.locator(".xp-view-heatmap .xp-variant[data-keys^='4-']")).to_be_visible()


def test_a_page_opened_before_a_deploy_asks_for_a_reload_instead_of_mixing_builds(fresh_context, playground_site,
                                                                                  tmp_path):
    site = tmp_path / "_site"
    shutil.copytree(playground_site, site)
    server = Server(site)
    try:
        page = fresh_context.new_page()
        page.goto(server.url("01-playground/index.html"))
        run(page, "#cell-1")  # the service worker now controls the page
        old = json.loads((site / "offline.json").read_text())["assets"]
        # A deploy: new front-end files on the server while this page is open.
        (site / "assets" / "editor.js").write_text("export function mountEditor() { throw new Error('new'); }\n")
        status = "() => fetch('../assets/editor.js?v={}').then((r) => r.status)".format(old)
        assert page.evaluate(status) == 409  # the running service worker refuses the newer build's file
        page.locator("#cell-2 .cell-code").click()
        expect(page.locator("#cell-2 .out-warning")).to_have_text(
            "The course was updated since this page was opened: reload the page to continue (your work is kept).")
        assert page.locator("#cell-2 .cm-editor").count() == 0  # the newer build's editor never ran here
    finally:
        server.close()


ACCENTED = "03 atención y más"


@pytest.fixture(scope="module")
def accented_site(tmp_path_factory):
    """A course whose one lesson lives in a folder named with accents and spaces."""
    lessons = tmp_path_factory.mktemp("accented") / "lessons"
    shutil.copytree(PLAYGROUND / "02-druhyi", lessons / ACCENTED)
    return build_site(lessons, lessons.parent / "_site")


def import_receipt(page, tmp_path, entries):
    receipt = tmp_path / "receipt.json"
    receipt.write_text(json.dumps({"format": "attention-course-work", "version": 1, "entries": entries}))
    page.locator("input[type=file]").set_input_files(str(receipt))


def test_work_in_a_lesson_whose_folder_has_accents_and_spaces_is_exported_and_imported(fresh_context, accented_site,
                                                                                        tmp_path):
    server = Server(accented_site)
    try:
        page = fresh_context.new_page()
        page.goto(server.url("index.html"))
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        page.locator(".lesson-card a.lesson-title").click()
        edit_cell(page, 1, "print('mine')")
        page.goto(server.url("index.html"))
        with page.expect_download() as download:
            page.locator("[data-action=export]").click()
        expect(page.locator(".work-status")).to_have_text("Exported 2 saved items.")  # the cell, the visit
        receipt = tmp_path / "work.json"
        download.value.save_as(receipt)
        entries = json.loads(receipt.read_text())["entries"].values()
        assert [entry["code"] for entry in entries if "code" in entry] == ["print('mine')"]
        page.evaluate("() => localStorage.clear()")
        page.locator("input[type=file]").set_input_files(str(receipt))
        expect(page.locator(".work-status")).to_contain_text("Saved items in the file: 2; added or replaced here: 2.")
        page.locator(".lesson-card a.lesson-title").click()
        expect(page.locator("#cell-1 .cell-code code")).to_have_text("print('mine')")
    finally:
        server.close()
    page.reload()  # the service worker kept the page it served (its folder name arrives %-encoded)
    expect(page.locator("#cell-1 .cell-code code")).to_have_text("print('mine')")


def test_a_receipt_for_lessons_the_course_does_not_have_is_refused_and_names_them(fresh_context, course_server,
                                                                                   tmp_path):
    page = fresh_context.new_page()
    page.goto(course_server.url("index.html"))
    before = page.evaluate("() => JSON.stringify(localStorage)")
    import_receipt(page, tmp_path, {
        "course:v1:000-varias-cabezas:cell:1": {"code": "print(1)", "original": "x"},
        "course:v1:999-gone:quiz:1": {"answer": 0},
        "course:v1:otra%20lecci%C3%B3n:cell:2": {"code": "", "original": ""},
    })
    expect(page.locator(".work-status")).to_have_text(
        "Nothing was changed: the receipt holds work for lessons this course does not have: 999-gone, otra lección.")
    assert page.evaluate("() => JSON.stringify(localStorage)") == before


def test_an_import_larger_than_the_storage_changes_nothing_and_says_the_receipt_is_too_large(fresh_context, course_server, tmp_path):
    page = fresh_context.new_page()
    page.goto(course_server.url("index.html"))
    page.evaluate("""() => localStorage.setItem('course:v1:000-varias-cabezas:cell:1',
        JSON.stringify({code: 'before', original: 'x'}))""")
    before = page.evaluate("() => JSON.stringify(localStorage)")
    entries = {"course:v1:000-varias-cabezas:cell:1": {"code": "after", "original": "x"}}
    for number in range(2, 10):  # 8 million characters: more than any browser keeps for one site
        entries["course:v1:000-varias-cabezas:cell:{}".format(number)] = {"code": "x" * 1_000_000, "original": "x"}
    import_receipt(page, tmp_path, entries)
    expect(page.locator(".work-status")).to_contain_text(
        "Nothing was changed: the receipt needs more room than this browser keeps for one site")
    expect(page.locator(".work-status")).to_contain_text("of 9 items fitted")
    assert page.evaluate("() => JSON.stringify(localStorage)") == before
