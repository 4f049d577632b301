"""The pages in headless Chromium, served by the project's own server on 127.0.0.1."""

import json
import re

import pytest
from playwright.sync_api import expect

from coursebuild.lesson import package_name
from support import lesson_pages

PAGES = lesson_pages()  # every lesson's pages: lesson.md's and each edition's
PLAYGROUND = "01-playground/index.html"


def page_data(site, slug):
    html = (site / slug / "index.html").read_text()
    text = re.search(r'id="page-data">(.*?)</script>', html, re.S).group(1)
    return json.loads(text)


def output_of(page, number):
    return "".join(page.locator("#cell-{} .cell-output .out".format(number)).all_text_contents())


def run_cell(page, number):
    page.locator("#cell-{} [data-action=run]".format(number)).click()
    expect(page.locator("#cell-{}".format(number))).to_have_attribute("data-state", re.compile("done|failed"),
                                                                      timeout=120_000)


def edit_cell(page, number, code):
    page.locator("#cell-{} .cell-code".format(number)).click()
    editor = page.locator("#cell-{} .cm-content".format(number))
    expect(editor).to_be_visible(timeout=30_000)  # the editor bundle loads on first edit; a busy machine is slow
    editor.press("Control+a")
    page.keyboard.insert_text(code)


def record_requests(page):
    urls = []
    page.on("request", lambda request: urls.append(request.url))
    return urls


@pytest.mark.parametrize("slug", PAGES)
def test_every_cell_reproduces_its_build_time_output_in_the_browser(page, course_server, course_site, slug):
    requests = record_requests(page)
    served_before = len(course_server.httpd.log)
    page.goto(course_server.url(slug + "/index.html"))
    cells = page_data(course_site, slug)["cells"]
    built = {cell["id"]: output_of(page, cell["id"]) for cell in cells}
    page.locator("[data-action=run-all]").click()
    last = [cell for cell in cells if not cell["skip_run_all"]][-1]
    for cell in cells:
        if cell["skip_run_all"] and "remove-cell" in cell["tags"]:
            assert built[cell["id"]] == ""  # bookkeeping of a skipped cell: no Run of its own, nothing printed
            continue
        if cell["skip_run_all"]:  # run all leaves it out; its own Run starts it, once run all has finished
            expect(page.locator("#cell-{}".format(last["id"]))).to_have_attribute(
                "data-state", re.compile("done|failed"), timeout=180_000)
            assert page.locator("#cell-{} .cell-output".format(cell["id"])).get_attribute("data-origin") == "build"
            page.locator("#cell-{} [data-action=run]".format(cell["id"])).click()
        expect(page.locator("#cell-{}".format(cell["id"]))).to_have_attribute(
            "data-state", "failed" if cell["raises"] else "done", timeout=180_000)
        assert page.locator("#cell-{} .cell-output".format(cell["id"])).get_attribute("data-origin") == "live"
        assert output_of(page, cell["id"]) == built[cell["id"]], "cell {} of {}".format(cell["id"], slug)
    assert requests and all(url.startswith(course_server.origin) or url.startswith("data:") for url in requests)
    # The worker loaded the general library and this lesson's own package, and no other lesson's code.
    packages = {path.split("?")[0] for path, _ in course_server.httpd.log[served_before:] if "/assets/lesson-" in path}
    assert packages == {"/assets/lesson-{}.json".format(package_name(slug.split("/")[0]))}


@pytest.mark.parametrize("server", ["playground_server", "playground_server_314"])
def test_pure_python_cells_match_the_build_on_both_pyodide_generations(page, request, server, playground_site):
    server = request.getfixturevalue(server)
    page.goto(server.url(PLAYGROUND))
    built = {number: output_of(page, number) for number in range(1, 6)}
    page.locator("[data-action=run-all]").click()
    expect(page.locator("#cell-5")).to_have_attribute("data-state", "done", timeout=120_000)
    for number in range(1, 6):
        assert output_of(page, number) == built[number]
    assert page.locator("#cell-5 .out-stderr").text_content() == "to stderr\n"


def test_python_starts_loading_on_intent_not_on_page_load(page, playground_server):
    requests = record_requests(page)
    page.goto(playground_server.url(PLAYGROUND))
    page.wait_for_load_state("networkidle")
    assert not [url for url in requests if "/runtime/" in url or "worker" in url]
    with page.expect_request(re.compile(r"/runtime/")):
        page.locator("#cell-1 .cell-code").hover()
    expect(page.locator(".runtime-status")).to_have_text(re.compile("Python is ready"), timeout=120_000)


def test_the_download_progress_counts_every_runtime_byte(page, playground_server, playground_site):
    total = sum(file["size"] for file in page_data(playground_site, "01-playground")["runtime"]["files"])
    page.goto(playground_server.url(PLAYGROUND))
    run_cell(page, 1)
    progress = page.locator(".runtime-progress")
    assert progress.get_attribute("max") == str(total)


def test_without_a_service_worker_stop_ends_the_worker_and_replays_the_earlier_cells(browser, playground_server):
    # No service worker, so no way into the running Python: Stop's last resort (the restart), a fresh worker.
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.goto(playground_server.url(PLAYGROUND))
    run_cell(page, 1)
    edit_cell(page, 5, "while True: pass")
    page.keyboard.press("Shift+Enter")
    expect(page.locator("#cell-5")).to_have_attribute("data-state", "running")
    page.evaluate("""() => { window.barSaid = []; const status = document.querySelector('.runtime-status');
        new MutationObserver(() => window.barSaid.push(status.textContent)).observe(status, {childList: true}); }""")
    page.locator("[data-action=stop]").click()
    expect(page.locator("#cell-5")).not_to_have_attribute("data-state", "running")
    expect(page.locator("#cell-5 .out-restart")).to_contain_text("Cells 1, 3, 4 were run again", timeout=60_000)
    # While the fresh Python loads (on a first visit it downloads the runtime again), the bar says why, and what
    # will come back, before each of its loading lines.
    why = "Python is restarting to stop the code; then cells 1, 3, 4 will run again to bring their variables back."
    said = page.evaluate("window.barSaid")
    assert why in said and any(text.startswith(why + " ") for text in said), said
    page.locator("#cell-5 [data-action=reset]").click()
    run_cell(page, 5)
    assert output_of(page, 5).startswith("42\n")
    context.close()


def test_on_a_first_visit_stop_interrupts_a_loop_through_the_service_workers_flag(page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    assert not page.evaluate("self.crossOriginIsolated")  # no SharedArrayBuffer before the service worker served it
    run_cell(page, 1)
    edit_cell(page, 5, "n = 0\nwhile True:\n    n += 1")
    page.keyboard.press("Shift+Enter")
    expect(page.locator("#cell-5")).to_have_attribute("data-state", "running")
    page.locator("[data-action=stop]").click()
    expect(page.locator("#cell-5 .out-stopped")).to_have_text("Stopped; Python kept every variable.")
    expect(page.locator("#cell-5 .out-restart")).to_have_count(0)
    expect(page.locator("#cell-5 .out-error")).to_have_count(0)  # no KeyboardInterrupt traceback
    edit_cell(page, 5, "print(x, n > 0)")
    run_cell(page, 5)
    assert output_of(page, 5) == "41 True\n"


def test_a_stopped_cell_is_not_run_again_for_a_cell_below_and_the_cell_below_offers_to_run_it(page,
                                                                                              playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    run_cell(page, 1)
    edit_cell(page, 5, "n = 0\nwhile True:\n    n += 1")
    page.keyboard.press("Shift+Enter")
    expect(page.locator("#cell-5")).to_have_attribute("data-state", "running")
    page.locator("[data-action=stop]").click()
    expect(page.locator("#cell-5 .out-stopped")).to_have_text("Stopped; Python kept every variable.")
    run_cell(page, 6)  # cells 3 and 4 run first; the stopped loop does not
    expect(page.locator("#cell-6")).to_have_attribute("data-state", "done")
    expect(page.locator("#cell-4")).to_have_attribute("data-run-by", "page")
    expect(page.locator("#cell-5 .out-stopped")).to_have_count(1)  # a run would have replaced its output
    assert page.locator("#cell-5").get_attribute("data-run-by") == "learner"
    note = page.locator("#cell-6 .skip-note")
    expect(note).to_have_text(re.compile(r"^Cell 5 above was stopped, so it was not run again first: what it defines "
                                         r"may be missing or incomplete\. Run cell 5$"))
    expect(note.locator("a[href='#cell-5']")).to_have_count(1)
    page.locator("#cell-5 [data-action=reset]").click()
    note.locator("[data-action=run-stopped]").click()
    expect(page.locator("#cell-5")).to_have_attribute("data-state", "done", timeout=60_000)
    assert output_of(page, 5).startswith("42\n")
    expect(page.locator("#cell-5")).to_have_attribute("data-run-by", "learner")


def test_an_exception_shows_the_cells_lines_and_no_glue_frames(page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    run_cell(page, 1)
    run_cell(page, 2)
    trace = page.locator("#cell-2 .out-error").text_content()
    assert trace == ('Traceback (most recent call last):\n'
                     '  File "<cell 2>", line 4, in <module>\n    half(x)\n'
                     '  File "<cell 2>", line 2, in half\n    return n / zero\n'
                     "NameError: name 'zero' is not defined\n")
    expect(page.locator("#cell-2 .cell-status")).to_have_text("raised an error")


def test_a_flood_of_output_is_truncated_and_the_page_stays_usable(page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    run_cell(page, 4)
    expect(page.locator("#cell-4 .out-note")).to_have_text("… 99000 more lines were not shown.")
    assert output_of(page, 4).count("\n") == 1000
    run_cell(page, 1)
    assert output_of(page, 1) == "x is 41\n"


def test_printed_markup_is_shown_as_text(page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    run_cell(page, 3)
    assert output_of(page, 3) == "<img src=x onerror=alert(1)>\n<script>alert(2)</script>\n"
    assert page.locator("#cell-3 .cell-output img, #cell-3 .cell-output script").count() == 0
    assert page.dialogs == []


def test_the_editor_loads_on_first_edit_and_marks_old_output_stale(page, playground_server):
    requests = record_requests(page)
    page.goto(playground_server.url(PLAYGROUND))
    page.wait_for_load_state("networkidle")
    assert not [url for url in requests if "/assets/editor.js" in url]
    edit_cell(page, 1, "x = 7\nprint('x is now', x)")
    assert [url for url in requests if "/assets/editor.js" in url]
    expect(page.locator("#cell-1 .out-stale")).to_be_visible()
    expect(page.locator("#cell-1 [data-action=reset]")).to_be_visible()
    page.keyboard.press("Shift+Enter")
    expect(page.locator("#cell-1")).to_have_attribute("data-state", "done", timeout=120_000)
    assert output_of(page, 1) == "x is now 7\n"
    expect(page.locator("#cell-1 .out-stale")).to_have_count(0)


def test_edited_code_survives_a_reload_and_can_be_reset(page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    edit_cell(page, 5, "print('kept across reloads')")
    page.reload()
    expect(page.locator("#cell-5 .cell-code code")).to_have_text("print('kept across reloads')")
    expect(page.locator("#cell-5 .out-restored")).to_be_visible()
    run_cell(page, 5)
    assert output_of(page, 5) == "kept across reloads\n"
    page.locator("#cell-5 [data-action=reset]").click()
    page.reload()
    expect(page.locator("#cell-5 .cell-code code")).to_have_text(re.compile(r"^import sys"))
    expect(page.locator("#cell-5 .out-restored")).to_have_count(0)


SAVED_CODE = """() => {
  const data = JSON.parse(document.querySelector('body > script#page-data').textContent);
  const saved = localStorage.getItem('course:v1:01-playground:cell:' + data.cells[4].key);
  return saved === null ? null : JSON.parse(saved).code;
}"""
SET_ASIDE_CODE = """() => Object.keys(localStorage).filter((name) => name.includes(':set-aside:'))
  .map((name) => JSON.parse(localStorage.getItem(name))).filter((record) => record.reason === 'older')
  .map((record) => record.value.code)"""


def test_a_save_in_another_tab_is_noticed_and_the_version_not_kept_is_set_aside(page, playground_server):
    other = page.context.new_page()
    for tab in (page, other):
        tab.goto(playground_server.url(PLAYGROUND))
    edit_cell(page, 5, "print('tab A')")
    page.wait_for_function("() => (" + SAVED_CODE + ")() === \"print('tab A')\"")
    note = other.locator("#cell-5 .other-tab")
    expect(note).to_contain_text("Another tab of this lesson saved different code for this block.")
    expect(other.locator("#cell-5 .cell-code code")).to_have_text(re.compile(r"^import sys"))  # nothing replaced
    note.locator("[data-action=take-other-tab]").click()
    expect(other.locator("#cell-5 .cell-code code")).to_have_text("print('tab A')")
    expect(note).to_have_count(0)
    edit_cell(other, 5, "print('tab B')")
    other.wait_for_function("() => (" + SAVED_CODE + ")() === \"print('tab B')\"")
    mine = page.locator("#cell-5 .other-tab")
    expect(mine).to_be_visible()
    assert page.locator("#cell-5 .cm-content").text_content() == "print('tab A')"
    mine.locator("[data-action=keep-this-tab]").click()
    page.wait_for_function("() => (" + SAVED_CODE + ")() === \"print('tab A')\"")
    assert page.evaluate(SET_ASIDE_CODE) == ["print('tab B')"]  # tab B's code stays in the exported work
    expect(other.locator("#cell-5 .other-tab")).to_be_visible()  # and tab B is told its code was replaced
    assert other.locator("#cell-5 .cm-content").text_content() == "print('tab B')"


def test_a_page_opened_from_disk_reads_fully_and_explains_how_to_run(page, playground_site):
    page.goto((playground_site / "01-playground" / "index.html").as_uri())
    assert output_of(page, 1) == "x is 41\n"
    page.locator("#cell-1 [data-action=run]").click()
    expect(page.locator("#cell-1 .out-warning")).to_contain_text("python3 -m http.server -d _site")
    expect(page.locator(".runtime-status")).to_contain_text("serve the folder")


def test_a_restored_edit_says_when_the_lessons_code_changed_since(page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    # Only a cell with an author's :id: keeps its key when its code changes; under any key, a restored edit
    # made from other code says so.
    page.evaluate("""() => localStorage.setItem('course:v1:01-playground:cell:' + JSON.parse(
        document.querySelector('body > script#page-data').textContent).cells[0].key,
        JSON.stringify({code: "print('mine')", original: "x = 40  # an older version of the lesson"}))""")
    page.reload()
    expect(page.locator("#cell-1 .cell-code code")).to_have_text("print('mine')")
    expect(page.locator("#cell-1 .out-restored")).to_contain_text("the lesson's code has changed since you edited it")
    expect(page.locator("#cell-1 .out-stale")).to_be_visible()


def test_a_broken_runtime_is_reported_instead_of_loading_forever(page, tmp_path, playground_site):
    import shutil

    from support import Server
    site = tmp_path / "_site"
    shutil.copytree(playground_site, site)
    for wasm in (site / "runtime").glob("*.wasm"):
        wasm.write_bytes(b"not webassembly")
    server = Server(site)
    try:
        page.goto(server.url(PLAYGROUND))
        page.locator("#cell-1 [data-action=run]").click()
        expect(page.locator(".runtime-status")).to_contain_text("Python could not start", timeout=60_000)
        assert page.locator("#cell-1").get_attribute("data-state") != "running"
    finally:
        server.close()


JS_CONTROLS = ("[data-action=run]", "[data-action=reset]", "[data-action=run-all]", "[data-action=stop]",
               "[data-action=check]", "[data-action=reset-exercise]", "[data-action=hint]", ".quiz-actions")


@pytest.mark.parametrize("how", ["javascript off", "script failed to load"])
def test_controls_that_need_javascript_are_hidden_when_it_does_not_run(browser, course_server, how):
    context = browser.new_context(java_script_enabled=how != "javascript off")
    page = context.new_page()
    if how == "script failed to load":
        page.route("**/assets/page.js", lambda route: route.abort())
    page.goto(course_server.url("000-varias-cabezas/index.html"))
    expect(page.locator(".cell-output .out").first).to_be_visible()  # the page reads fully
    for selector in JS_CONTROLS:
        assert page.locator(selector).count() > 0, selector
        expect(page.locator(selector + ":visible")).to_have_count(0)
    context.close()


def test_a_fatal_interpreter_error_restarts_python_and_brings_the_earlier_cells_back(page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    run_cell(page, 1)
    edit_cell(page, 5, "import sys\nsys.setrecursionlimit(10**6)\ndef deeper(n):\n    return deeper(n + 1)\ndeeper(0)\n")
    page.keyboard.press("Shift+Enter")
    expect(page.locator("#cell-5")).to_have_attribute("data-state", "failed", timeout=120_000)
    expect(page.locator("#cell-5 .out-restart")).to_contain_text("Cells 1, 3, 4 were run again", timeout=60_000)
    expect(page.locator("#cell-5 .out-warning")).to_have_count(0)  # not "Python could not start"
    page.locator("#cell-5 [data-action=reset]").click()
    run_cell(page, 5)
    assert output_of(page, 5).startswith("42\n")


def test_stop_during_the_download_says_what_happened_and_run_loads_python_again(browser, playground_server):
    context = browser.new_context(service_workers="block")
    held = []
    stalled = re.compile(r".*/runtime/.*")
    context.route(stalled, lambda route: held.append(route))  # the download stalls until released
    page = context.new_page()
    page.goto(playground_server.url(PLAYGROUND))
    page.locator("#cell-1 [data-action=run]").click()
    expect(page.locator("body")).to_have_attribute("data-runtime", "loading")
    page.locator("[data-action=stop]").click()
    expect(page.locator("#cell-1 .out-stopped")).to_have_text(
        "Stopped while Python was still loading, before this ran; Run starts loading it again.")
    expect(page.locator(".runtime-status")).to_have_text("Python is stopped; Run starts it again.")
    expect(page.locator("#cell-1 .out-restart")).to_have_count(0)
    # It never ran: the output under it is the build's, and says so (issue 53)
    expect(page.locator("#cell-1 .out-recorded")).to_have_text(
        "Not run in this visit: this is the lesson's recorded output, from when the page was built.")
    for route in held:  # the page's own fetches ahead of its worker (a service worker was expected: none came)
        route.continue_()
    context.unroute(stalled)
    run_cell(page, 1)
    expect(page.locator("#cell-1")).to_have_attribute("data-state", "done")
    context.close()
