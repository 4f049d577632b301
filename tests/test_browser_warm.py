"""A warm visit: the service worker answers the files a build pins from its cache, asks the network for no one,
and Python starts with no learner action; a cold visit downloads nothing until the learner heads for a cell; the
first start reads each runtime file once, with the course library alongside."""

import json
import re

from playwright.sync_api import expect

from support import ROOT

PLAYGROUND = "01-playground/index.html"
STRINGS = json.loads((ROOT / "site" / "i18n" / "en.json").read_text(encoding="utf-8"))


def run_first_cell(page):
    page.locator("#cell-1 [data-action=run]").click()
    expect(page.locator("#cell-1")).to_have_attribute("data-state", re.compile("done|failed"), timeout=120_000)


def test_on_a_warm_visit_the_service_worker_answers_build_pinned_files_without_the_network(page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    run_first_cell(page)  # the first Run waits for the service worker to control the page, and goes through it
    page.reload()
    run_first_cell(page)
    served_before = len(playground_server.httpd.log)
    page.reload()
    run_first_cell(page)
    served = [path for path, _ in playground_server.httpd.log[served_before:]]
    pinned = [path for path in served if re.search(r"/assets/(worker-|course-lib|lesson-|editor)", path)]
    assert pinned == [], "asked the network for files this build pins: {}".format(pinned)
    assert not any("/runtime/" in path for path in served)


def test_the_first_start_fetches_the_course_library_while_pyodide_loads(page, playground_server):
    served_before = len(playground_server.httpd.log)
    page.goto(playground_server.url(PLAYGROUND))
    run_first_cell(page)
    served = [path for path, _ in playground_server.httpd.log[served_before:]]
    library = served.index(next(path for path in served if "/assets/course-lib" in path))
    numpy = served.index(next(path for path in served if "/runtime/numpy" in path))  # loaded once Pyodide is up
    assert library < numpy, served


def test_the_first_start_downloads_each_runtime_file_once_and_the_bar_counts_those_bytes(page, playground_server):
    # The page fetches the runtime ahead of its worker while the service worker takes control, and the worker's
    # reads find it in the browser's cache: the server sends each file once.
    served_before = len(playground_server.httpd.log)
    page.goto(playground_server.url(PLAYGROUND))
    run_first_cell(page)
    runtime = [path for path, _ in playground_server.httpd.log[served_before:]
               if "/runtime/" in path and not path.endswith("packages.json")]
    assert runtime and len(runtime) == len(set(runtime)), runtime
    bar = page.locator(".runtime-progress")
    assert bar.evaluate("bar => bar.value") == bar.evaluate("bar => bar.max") > 0


# The service worker's registration held back until the test releases it, so that a first Run is pressed while no
# service worker controls the page, as when a learner clicks at once on a first visit.
HOLD_REGISTRATION = """(() => {
  const register = ServiceWorkerContainer.prototype.register;
  const released = new Promise((resolve) => { window.releaseRegistration = resolve; });
  ServiceWorkerContainer.prototype.register = function (...args) {
    return released.then(() => register.apply(this, args));
  };
})();"""


def test_a_first_visit_fetches_the_runtime_while_the_service_worker_takes_control(page, playground_server):
    page.add_init_script(HOLD_REGISTRATION)
    served_before = len(playground_server.httpd.log)
    page.goto(playground_server.url(PLAYGROUND))
    page.locator("#cell-1 [data-action=run]").click()
    expect(page.locator("body")).to_have_attribute("data-runtime", "loading")
    page.evaluate("() => window.releaseRegistration()")
    expect(page.locator("#cell-1")).to_have_attribute("data-state", "done", timeout=120_000)
    # The worker still started under the service worker, which gives its script the policy that keeps learner
    # code on this site.
    assert page.evaluate("() => Boolean(navigator.serviceWorker.controller)")
    # The page's own fetches (Resource Timing lists the page's, not its worker's): every file the worker's start
    # reads was asked for before the worker existed, while the page waited for the service worker.
    fetched = page.evaluate("""() => {
      const created = performance.getEntriesByName("course-worker-created")[0].startTime;
      return performance.getEntriesByType("resource").filter((entry) => entry.name.includes("/runtime/"))
        .map((entry) => [entry.name.split("/runtime/")[1], entry.startTime < created]);
    }""")
    files = [file["name"] for file in page.evaluate(
        "() => JSON.parse(document.getElementById('page-data').textContent).runtime.files")]
    assert sorted(name for name, _ in fetched) == sorted(files), fetched
    assert all(before for _, before in fetched), fetched
    # ... and the worker's reads of them, through the service worker, were answered by the browser's cache.
    runtime = [path for path, _ in playground_server.httpd.log[served_before:]
               if "/runtime/" in path and not path.endswith("packages.json")]
    assert len(runtime) == len(set(runtime)), runtime


# Every sentence the runtime bar says, from the one the build wrote on.
RECORD_STATUS = """document.addEventListener("DOMContentLoaded", () => {
  const status = document.querySelector(".runtime-status");
  window.saidByBar = [status.textContent];
  new MutationObserver(() => window.saidByBar.push(status.textContent))
    .observe(status, { childList: true, characterData: true, subtree: true });
});"""


def test_on_a_warm_visit_python_starts_when_the_page_is_idle_without_a_learner_action(page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    run_first_cell(page)  # the runtime is now in the service worker's cache
    warm = page.context.new_page()  # a new tab: no pointer rests on a cell, nothing is focused or pressed
    warm.add_init_script(RECORD_STATUS)
    warm.goto(playground_server.url(PLAYGROUND))
    expect(warm.locator("body")).to_have_attribute("data-runtime-cached", "true")
    expect(warm.locator("body")).to_have_attribute("data-runtime", "ready", timeout=120_000)
    expect(warm.locator(".runtime-status")).to_have_text(re.compile("ready", re.I))
    # Nothing is downloaded, and the bar says so: the build's sentence states the whole runtime's size, then the
    # bar says its files are stored, and no sentence after the build's names a size.
    said = warm.evaluate("() => window.saidByBar")
    assert re.search(r"\d MB the first time", said[0]), said
    assert STRINGS["runtime_idle_stored"] in said and not [text for text in said[1:] if " MB" in text], said


def test_on_a_cold_visit_python_waits_for_the_learner_even_when_the_page_is_idle(page, playground_server):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(playground_server.url(PLAYGROUND))
    expect(page.locator("body")).to_have_attribute("data-runtime-cached", "false")
    # The moment a warm visit would start: the page has loaded and the browser is idle.
    page.evaluate("() => new Promise(done => requestIdleCallback(done, { timeout: 2000 }))")
    assert page.locator("body").get_attribute("data-runtime") == "idle"
    assert not [url for url in requests if "/runtime/" in url or "/worker-" in url]


def test_on_a_course_with_packages_a_lesson_without_any_starts_warm_before_micropip_is_cached(page, course_server):
    # Lesson 000 lists einops, so the site ships micropip; lesson 003's start never reads micropip's files,
    # so they are not among the files whose presence in the cache makes its visit warm.
    lesson = "003-odna-holova/index.html"
    page.goto(course_server.url(lesson))
    run_first_cell(page)
    warm = page.context.new_page()
    warm.goto(course_server.url(lesson))
    expect(warm.locator("body")).to_have_attribute("data-runtime-cached", "true")
    expect(warm.locator("body")).to_have_attribute("data-runtime", "ready", timeout=120_000)
