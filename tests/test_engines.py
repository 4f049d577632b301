"""The cross-engine smoke suite: every lesson in Chromium, Firefox ESR and WebKitGTK, through tests/engines.py.

Written once against the driver layer. Each engine gets one browser (and one profile) for the whole module,
so the second visit finds the runtime in the service worker's cache, as a learner's browser would.
Run one engine alone with `-k chromium`, `-k firefox` or `-k webkit`.
"""

import json
import re
import time

import pytest
from engines import ENGINES, launch, require

from support import ROOT

LESSONS = sorted(path.parent.name for path in (ROOT / "lessons").glob("*/lesson.md"))
PLAYGROUND = "01-playground/index.html"
# A stopped worker that keeps spinning burns a whole core for good: about 3 s of CPU in every window. The engine's
# own work after a run passes (WebKitGTK has a burst of 1-2 s of CPU a few seconds after one), so the engine must
# reach an idle window within IDLE_WINDOWS of them.
IDLE_WINDOW_S = 3.0
IDLE_CPU_S = 1.0
IDLE_WINDOWS = 5


def page_data(driver):
    return driver.js("return JSON.parse(document.getElementById('page-data').textContent)")


def cell_output(driver, number):
    return driver.text("#cell-{} .cell-output .out".format(number))


def wait_state(driver, selector, pattern, timeout=180):
    """Wait until `selector`'s data-state matches the regular expression `pattern`."""
    return driver.wait("const e = document.querySelector(arguments[0]); "
                       "return !!e && new RegExp(arguments[1]).test(e.dataset.state || '');",
                       timeout, "{} never reached state {}".format(selector, pattern), selector, pattern)


def _open_engine(request, profile):
    """A driver for profile ("chromium", "firefox", "webkit" or "webkit+sab"), or a skip/fail if it is missing."""
    engine = profile.split("+")[0]
    require(engine)
    # Chromium comes from the suite's one Playwright (a second one cannot start in the same thread).
    chromium = request.getfixturevalue("browser").browser_type if engine == "chromium" else None
    options = {"shared_array_buffer": True} if profile == "webkit+sab" else {}
    each = launch(engine, chromium, **options)
    yield each
    each.close()


@pytest.fixture(scope="module", params=ENGINES)
def driver(request):
    """One browser per engine for the module: its profile (and service worker cache) persists across tests."""
    yield from _open_engine(request, request.param)


@pytest.fixture(params=list(ENGINES) + ["webkit+sab"])
def fresh_driver(request):
    """A browser of its own, for a test that may leave a worker spinning; WebKit also with SharedArrayBuffer."""
    yield from _open_engine(request, request.param)


@pytest.mark.parametrize("slug", LESSONS)
def test_the_page_reads_before_python_loads(driver, course_server, course_site, slug):
    driver.open(course_server.url(slug + "/index.html"))
    title = driver.text("h1")
    assert title and title in (course_site / slug / "index.html").read_text()
    for cell in page_data(driver)["cells"]:
        if {"remove-cell", "remove-output"} & set(cell["tags"]):
            continue  # bookkeeping out of sight, which prints nothing (test_lessons checks the outputs shown)
        assert cell_output(driver, cell["id"]), "cell {} shows no build-time output".format(cell["id"])
    assert driver.js("return document.body.dataset.runtime") == "idle"
    assert driver.js("return document.querySelectorAll('math').length") > 0
    assert driver.errors() == []


@pytest.mark.parametrize("slug", LESSONS)
def test_run_all_reproduces_the_build_time_outputs(driver, course_server, slug):
    driver.open(course_server.url(slug + "/index.html"))
    data = page_data(driver)
    built = {cell["id"]: cell_output(driver, cell["id"]) for cell in data["cells"]}
    driver.click_name(data["strings"]["run_all"])
    for cell in data["cells"]:
        if cell["skip_run_all"]:  # run all leaves it out (test_browser runs it by its own Run, in Chromium)
            continue
        wait_state(driver, "#cell-{}".format(cell["id"]), "^failed$" if cell["raises"] else "^done$")
        assert cell_output(driver, cell["id"]) == built[cell["id"]], "cell {} of {}".format(cell["id"], slug)
    assert driver.errors() == []


def _first_choice_quiz(data):
    return next((quiz for quiz in data["quizzes"] if quiz["kind"] == "single"), None)


@pytest.mark.parametrize("slug", LESSONS)
def test_a_quiz_is_answered_wrong_then_right(driver, course_server, slug):
    driver.open(course_server.url(slug + "/index.html"))
    quiz = _first_choice_quiz(page_data(driver))
    if quiz is None:
        pytest.skip("{} has no single-choice question".format(slug))
    form = "#quiz-{}".format(quiz["id"])
    options = driver.js("return document.querySelectorAll(arguments[0] + ' input').length", form)
    wrong = next(index for index in range(options) if index not in quiz["correct"])
    for index, state in ((wrong, "wrong"), (quiz["correct"][0], "right")):
        if state == "right":
            driver.click("{} [data-action=retry]".format(form))
        driver.js("document.querySelectorAll(arguments[0] + ' input')[arguments[1]].click()", form, index)
        driver.click("{} button[type=submit]".format(form))
        wait_state(driver, form, "^{}$".format(state), timeout=10)
        assert driver.text(form + " .quiz-explanation")


def _exercises(slug):
    folder = ROOT / "lessons" / slug / "exercises"
    return sorted(path for path in folder.glob("*") if (path / "solution.py").exists())


def _submit(driver, exercise, code):
    selector = "#exercise-{}".format(exercise)
    driver.click(selector + " .cell-code")
    driver.wait("return !!document.querySelector(arguments[0] + ' .cm-content')", 60, "no editor", selector)
    driver.type_into(selector + " .cm-content", code)
    driver.click(selector + " [data-action=check]")
    wait_state(driver, selector, "^(done|failed)$")
    return driver.js("return [document.querySelectorAll(arguments[0] + ' .check-fail').length, "
                     "document.querySelectorAll(arguments[0] + ' .check-ok').length]", selector)


@pytest.mark.parametrize("slug", LESSONS)
def test_an_exercise_fails_then_passes(driver, course_server, slug):
    exercises = _exercises(slug)
    if not exercises:
        pytest.skip("{} has no exercise".format(slug))
    folder = exercises[0]
    driver.open(course_server.url(slug + "/index.html"))
    wrong = sorted((folder / "wrong").glob("*.py"))[0]
    failed, _ = _submit(driver, folder.name, wrong.read_text())
    assert failed > 0, "{} passed".format(wrong.name)
    failed, passed = _submit(driver, folder.name, (folder / "solution.py").read_text())
    assert failed == 0 and passed > 0


@pytest.mark.parametrize("slug", LESSONS)
def test_an_explorable_switches_state(driver, course_server, slug):
    driver.open(course_server.url(slug + "/index.html"))
    if not driver.js("return document.querySelectorAll('figure.explorable').length"):
        pytest.skip("{} has no explorable".format(slug))
    drawn = driver.js("return document.querySelector('figure.explorable').innerHTML")
    buttons = driver.js("return document.querySelectorAll('figure.explorable button:not([disabled])').length")
    changed = False
    for index in range(buttons):
        driver.js("document.querySelectorAll('figure.explorable button:not([disabled])')[arguments[0]].click()", index)
        if driver.js("return document.querySelector('figure.explorable').innerHTML") != drawn:
            changed = True
            break
    assert changed, "no control of the explorable changed what it draws"
    assert driver.errors() == []


@pytest.mark.parametrize("slug", LESSONS)
def test_reload_keeps_the_learners_edit(driver, course_server, slug):
    driver.open(course_server.url(slug + "/index.html"))
    first = page_data(driver)["cells"][0]["id"]
    mark = "# kept by {}".format(driver.name)
    driver.type_into_cell(first, mark)
    driver.wait("return document.querySelector(arguments[0]).textContent.includes(arguments[1])", 10,
                "the edit did not appear", "#cell-{} .cell-code".format(first), mark)
    driver.js("window.dispatchEvent(new Event('pagehide'))")
    driver.reload()
    assert mark in driver.text("#cell-{} .cell-code code".format(first))
    driver.click("#cell-{} [data-action=reset]".format(first))


def test_the_second_lesson_visit_takes_the_runtime_from_the_service_worker(driver, course_server):
    slug = LESSONS[0]
    for visit in range(2):
        driver.open(course_server.url(slug + "/index.html"))
        if visit == 1:
            served = sum(size for _, size in course_server.served("/runtime/"))
        driver.click("[data-action=run]")
        driver.wait("return document.body.dataset.runtime === 'ready'", 180, "Python did not start")
    assert driver.js("return !!navigator.serviceWorker.controller")
    assert sum(size for _, size in course_server.served("/runtime/")) == served, "the runtime came from the network"


def test_available_offline_completes(driver, course_server):
    driver.open(course_server.url("index.html"))
    driver.wait("return !document.querySelector('.offline-actions').hidden", 60, "the offline control never showed")
    driver.click("[data-action=offline-save]")
    wait_state(driver, ".offline", "^ready$")
    stored = driver.js("return caches.keys().then((names) => JSON.stringify(names))")
    assert any(name.startswith("course-runtime-") for name in json.loads(stored))
    assert re.search(r"\S", driver.text(".offline-status"))


# WebKit's first visit is left out to keep the suite short: its stop flag is its second visit without the option.
STOP_CASES = [(engine, "first") for engine in ENGINES if engine != "webkit"] + [
    (profile, "second") for profile in list(ENGINES) + ["webkit+sab"]]


@pytest.mark.parametrize("fresh_driver, visit", STOP_CASES, indirect=["fresh_driver"])
def test_stop_interrupts_a_loop_keeps_every_variable_and_leaves_no_busy_worker(fresh_driver, playground_server,
                                                                             visit):
    """Stop ends `while True` without a restart, whichever way the page reaches the running Python.

    The second visit is served, isolated, by the course's service worker: SharedArrayBuffer there (the shared buffer), except
    in WebKitGTK without its engine option, where the service worker's stop flag does it (the stop flag). A first visit
    is not isolated: the stop flag in every engine.
    """
    driver = fresh_driver
    driver.open(playground_server.url(PLAYGROUND))
    driver.wait("return !!navigator.serviceWorker.controller", 60, "the service worker never took the page")
    if visit == "second":
        driver.reload()
    shared = driver.js("return self.crossOriginIsolated && typeof SharedArrayBuffer === 'function'")
    assert shared == (visit == "second" and driver.name != "webkit"), \
        "{}, {} visit: SharedArrayBuffer {}".format(driver.name, visit, "present" if shared else "missing")
    strings = page_data(driver)["strings"]
    driver.click("#cell-1 [data-action=run]")
    wait_state(driver, "#cell-1", "^done$")
    driver.type_into_cell(5, "n = 0\nwhile True:\n    n += 1")
    driver.click("#cell-5 [data-action=run]")
    wait_state(driver, "#cell-5", "^running$")
    driver.click_name(strings["stop"])
    wait_state(driver, "#cell-5", "^(?!running$|queued$)", timeout=10)
    assert driver.text("#cell-5 .out-stopped") == strings["stopped_interrupted"]
    assert driver.text("#cell-5 .out-restart") == "", "Python was restarted instead of interrupted"
    driver.type_into_cell(5, "print(x, n > 0)")
    driver.click("#cell-5 [data-action=run]")
    wait_state(driver, "#cell-5", "^done$")
    assert cell_output(driver, 5) == "41 True\n", "the variables did not survive Stop"
    used = []
    while len(used) < IDLE_WINDOWS and (not used or used[-1] >= IDLE_CPU_S):
        before = driver.cpu_seconds()
        time.sleep(IDLE_WINDOW_S)  # measuring what the engine does when nothing should run
        used.append(driver.cpu_seconds() - before)
    assert used[-1] < IDLE_CPU_S, "{}: the engine never went idle after Stop: CPU s per {} s: {}".format(
        driver.name, IDLE_WINDOW_S, ", ".join("{:.1f}".format(each) for each in used))
