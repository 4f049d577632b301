"""The cross-engine smoke suite: every lesson in Chromium, Firefox ESR and WebKitGTK, through tests/engines.py.

Written once against the driver layer. Each engine gets one browser (and one profile) for the whole module,
so a later visit finds the runtime in the service worker's cache, as a learner's browser would. If that browser
dies under a test (WebKitGTK's web process crashes now and then), the test runs once more on a fresh browser,
with a warning in pytest's summary that quotes the engine's log; a second crash fails it, and the next test
starts on a fresh browser again. No test counts on what an earlier one left in the profile: each makes the state
it checks (two visits, an edit before its reload), so a fresh profile changes only how long a test takes.
test_a_dead_browser_is_replaced_before_the_next_test runs first and kills the browser, so every later test of
the module proves it.
Run one engine alone with `-k chromium`, `-k firefox` or `-k webkit`.
"""

import functools
import inspect
import json
import os
import re
import shutil
import signal
import subprocess
import time
import warnings

import pytest
from engines import ENGINES, EngineCrashed, Session, descendants, launch, require

from coursebuild.lesson import read_lesson
from support import ROOT, SHORT_BRACKETS

# Every lesson.md's page, an English edition, and one of the Ukrainian editions that came after lesson 003's: the
# editions share their lesson's code, so these show each language's pages work in every engine (Chromium's suite
# runs every edition, tests/test_browser.py).
EDITIONS = ["000-varias-cabezas/en", "000-varias-cabezas/uk"]
LESSONS = sorted(path.parent.name for path in (ROOT / "lessons").glob("*/lesson.md")) + EDITIONS
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


def _starter(request, profile):
    """What starts a driver for profile ("chromium", "firefox", "webkit" or "webkit+sab"); skips or fails the
    test if that engine is missing."""
    engine = profile.split("+")[0]
    require(engine)
    # Chromium comes from the suite's one Playwright (a second one cannot start in the same thread).
    chromium = request.getfixturevalue("browser").browser_type if engine == "chromium" else None
    options = {"shared_array_buffer": True} if profile == "webkit+sab" else {}
    return lambda: launch(engine, chromium, **options)


def _open_engine(request, profile):
    """A driver of its own for one test, in a session of its own (so a retry can replace it)."""
    session = Session(_starter(request, profile))
    yield session.driver()
    session.close()


@pytest.fixture(scope="module", params=ENGINES)
def engine(request):
    """One browser per engine for the module, its profile (and service worker cache) kept across tests."""
    session = Session(_starter(request, request.param))
    yield session
    session.close()


@pytest.fixture
def driver(engine, request):
    """The module's browser for this engine, replaced first if it died in an earlier test."""
    return engine.driver(before=request.node.name)


@pytest.fixture(params=list(ENGINES) + ["webkit+sab"])
def fresh_driver(request):
    """A browser of its own, for a test that may leave a worker spinning; WebKit also with SharedArrayBuffer."""
    yield from _open_engine(request, request.param)


def retried_once_if_the_engine_dies(test):
    """Run `test` again, once, on a fresh browser if the engine itself died under it, with a warning in pytest's
    summary that quotes the crash. A failure with the engine still alive (the page's) is never retried, nor is a
    second crash. (A Firefox whose page process died can answer a script with null before it fails, so the test
    may meet an assertion first: whether the engine is dead is asked after any failure.) The driver is the test's
    first argument, whatever its name (`driver` or `fresh_driver`)."""
    name = next(iter(inspect.signature(test).parameters))

    @functools.wraps(test)
    def run(*positional, **arguments):
        arguments.update(zip(inspect.signature(test).parameters, positional))
        driver = arguments.pop(name)
        try:
            return test(driver, **arguments)
        except EngineCrashed as crash:
            cause = str(crash)
        except Exception:
            reason = driver.dead()
            if reason is None:
                raise
            cause = "{}: the engine died under it: {}. End of its log:\n{}".format(driver.name, reason, driver.log())
        warnings.warn("{} retried once on a fresh browser, because {}".format(test.__name__, cause), stacklevel=2)
        return test(driver.session.driver(before=test.__name__ + "'s retry"), **arguments)
    return run


def _browser_process(driver):
    """The pid of the browser's main process (for WebKit, MiniBrowser: the driver's child)."""
    if driver.name == "webkit":
        return next(pid for pid, command in descendants(driver.root_pid()).items() if "MiniBrowser" in command)
    return driver.root_pid()


def _page_processes(driver):
    """The pids of the processes that render pages, the open one among them (what dies when a page crashes)."""
    marks = {"chromium": "--type=renderer", "firefox": "-isForBrowser", "webkit": "WebKitWebProcess"}
    found = [pid for pid, command in descendants(driver.root_pid()).items() if marks[driver.name] in command]
    assert found, "{}: no page process among {}".format(driver.name, descendants(driver.root_pid()))
    return found


@pytest.mark.parametrize("process", ["page", "browser"])
def test_a_dead_browser_is_replaced_before_the_next_test(engine, course_server, process):
    """Killing the processes that render pages (what a page crash does) or the whole browser costs the module
    its browser, not the tests after it: the next driver the fixture hands out opens a lesson. This test runs
    first, so every later test of the module runs on a replacement: they pass only if none needs what an
    earlier test left in the profile."""
    lesson = course_server.url(LESSONS[0] + "/index.html")
    before = engine.driver()
    before.open(lesson)
    for pid in _page_processes(before) if process == "page" else [_browser_process(before)]:
        os.kill(pid, signal.SIGKILL)
    with pytest.raises(EngineCrashed, match="the engine died under this test"):
        before.wait("return false", timeout=60)  # what a test's next step meets
    after = engine.driver(before="this test's second half")
    after.open(lesson)
    assert after.text("h1") and page_data(after)["cells"]
    assert after.errors() == []


def test_a_test_is_retried_once_if_the_engine_dies_under_it_and_never_if_the_page_fails(driver, course_server):
    lesson = course_server.url(LESSONS[0] + "/index.html")
    attempts = []

    @retried_once_if_the_engine_dies
    def crashes_once(driver):
        attempts.append(driver)
        driver.open(lesson)
        if len(attempts) == 1:
            for pid in _page_processes(driver):
                os.kill(pid, signal.SIGKILL)
        assert driver.text("h1")

    with pytest.warns(UserWarning, match="crashes_once retried once on a fresh browser, because"):
        crashes_once(driver)
    assert len(attempts) == 2 and attempts[1] is not attempts[0]

    @retried_once_if_the_engine_dies
    def fails(driver):
        attempts.append(driver)
        assert driver.js("return false"), "the page's own failure"

    with pytest.raises(AssertionError, match="the page's own failure"):
        fails(attempts[1])
    assert len(attempts) == 3


@pytest.mark.parametrize("slug", LESSONS)
@retried_once_if_the_engine_dies
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
@retried_once_if_the_engine_dies
def test_run_all_reproduces_the_build_time_outputs(driver, course_server, slug):
    if driver.name == "chromium":
        pytest.skip("test_browser.py reproduces every page's cells in Chromium, the skipped cells among them")
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
@retried_once_if_the_engine_dies
def test_a_quiz_is_answered_wrong_then_right(driver, course_server, slug):
    driver.open(course_server.url(slug + "/index.html"))
    quiz = _first_choice_quiz(page_data(driver))
    if quiz is None:
        pytest.skip("{} has no single-choice question".format(slug))
    form = "#quiz-{}".format(quiz["id"])
    # By option id: the page shows the options in an order of its own.
    wrong = next(option for option in quiz["options"] if option not in quiz["correct"])
    for option, state in ((wrong, "wrong"), (quiz["correct"][0], "right")):
        if state == "right":
            driver.click("{} [data-action=retry]".format(form))
        driver.click('{} input[value="{}"]'.format(form, option))
        driver.click("{} button[type=submit]".format(form))
        wait_state(driver, form, "^{}$".format(state), timeout=10)
        assert driver.text(form + " .quiz-explanation")


# What a reader cannot see of each formula: a display formula too wide for its box (shown cut at the right edge,
# scrolling), or any part of a formula reaching past the edge of what its nearest clipping box (or the page)
# shows, scrolled to its end. Folded answers are opened first: their math counts too.
CUT_FORMULAS = """
document.querySelectorAll('main details').forEach((details) => { details.open = true; });
const cut = [];
for (const box of document.querySelectorAll('main .math.block')) {
  if (box.getClientRects().length && box.scrollWidth > box.clientWidth + 1) {
    cut.push('scrolls (' + box.scrollWidth + ' px in ' + box.clientWidth + '): ' + box.textContent.slice(0, 40));
  }
}
for (const math of document.querySelectorAll('main math')) {
  if (!math.getClientRects().length) continue;
  const text = document.createRange();
  text.selectNodeContents(math);
  const rects = [...text.getClientRects(), ...[...math.querySelectorAll('*')].map((e) => e.getBoundingClientRect())];
  const right = Math.max(math.getBoundingClientRect().right, ...rects.filter((r) => r.width > 0).map((r) => r.right));
  let edge = document.documentElement.clientWidth;
  for (let box = math.parentElement; box; box = box.parentElement) {
    const overflow = getComputedStyle(box).overflowX;
    if (overflow === 'visible') continue;
    const left = box.getBoundingClientRect().left;
    edge = Math.min(edge, overflow === 'auto' || overflow === 'scroll' ? left + box.scrollWidth - box.scrollLeft
                                                                      : left + box.clientWidth);
    break;
  }
  if (right > edge + 1) cut.push('reaches ' + Math.round(right - edge) + ' px past its edge: ' + math.textContent.slice(0, 40));
}
return cut;
"""


@pytest.mark.parametrize("slug", LESSONS)
@retried_once_if_the_engine_dies
def test_at_1280_px_every_formula_is_seen_whole(driver, course_server, slug):
    driver.resize(1280, 900)
    driver.open(course_server.url(slug + "/index.html"))
    assert driver.js(CUT_FORMULAS) == []


def _math_fonts():
    """The font families style.css names for math, before the generic `math` (none if it names none)."""
    rule = re.search(r"\nmath \{[^}]*font-family:([^;]+);", (ROOT / "site" / "style.css").read_text(encoding="utf-8"))
    return [name.strip().strip('"') for name in rule.group(1).split(",") if name.strip() != "math"] if rule else []


def _no_math_font_here():
    """True when style.css names math fonts, ships none of them (@font-face) and fontconfig (how the engines find
    fonts on Linux) has none of them."""
    if not _math_fonts():
        return False
    shipped = re.findall(r'@font-face \{ font-family: "([^"]+)"', (ROOT / "site" / "style.css").read_text(encoding="utf-8"))
    if set(shipped) & set(_math_fonts()):
        return False
    if not shutil.which("fc-list"):
        return True
    families = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True, check=True).stdout
    return not {name.strip() for line in families.splitlines() for name in line.split(",")} & set(_math_fonts())


@pytest.mark.parametrize("slug", LESSONS)
@retried_once_if_the_engine_dies
def test_brackets_beside_a_matrix_or_a_fraction_stretch_to_its_height(driver, course_server, slug):
    if _no_math_font_here():
        pytest.skip("no math font is installed (one of {}): apt-get install fonts-dejavu-extra".format(
            ", ".join(_math_fonts())))
    driver.open(course_server.url(slug + "/index.html"))
    driver.wait("return document.fonts.status === 'loaded'", 10, "the fonts did not load")
    measured, short = driver.js(SHORT_BRACKETS)
    if not measured:
        pytest.skip("{} has no bracket beside a matrix or a fraction".format(slug))
    assert short == []


def _exercises(slug):
    """The exercise folders of a page: exercises/ for lesson.md's, exercises.<language>/ for an edition's."""
    folder_name, _, language = slug.partition("/")
    folder = ROOT / "lessons" / folder_name / ("exercises." + language if language else "exercises")
    return sorted(path for path in folder.glob("*") if (path / "solution.py").exists())


def _first_wrong(slug, exercise):
    """(file name, code) of the exercise's first known-wrong solution, as the page's edition grades it: lesson.md's
    files, with the function renamed to the edition's name where the checker asks each language for its own."""
    folder_name, _, language = slug.partition("/")
    source = ROOT / "lessons" / folder_name / ("lesson.{}.md".format(language) if language else "lesson.md")
    wrong = next(each for each in read_lesson(source)[0].exercises if each.id == exercise).wrong
    return min(wrong.items())


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
@retried_once_if_the_engine_dies
def test_an_exercise_fails_then_passes(driver, course_server, slug):
    exercises = _exercises(slug)
    if not exercises:
        pytest.skip("{} has no exercise".format(slug))
    folder = exercises[0]
    driver.open(course_server.url(slug + "/index.html"))
    name, wrong = _first_wrong(slug, folder.name)
    failed, _ = _submit(driver, folder.name, wrong)
    assert failed > 0, "{} passed".format(name)
    failed, passed = _submit(driver, folder.name, (folder / "solution.py").read_text())
    assert failed == 0 and passed > 0


@pytest.mark.parametrize("slug", LESSONS)
@retried_once_if_the_engine_dies
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
@retried_once_if_the_engine_dies
def test_reload_keeps_the_learners_edit(driver, course_server, slug):
    driver.open(course_server.url(slug + "/index.html"))
    first = next(cell["id"] for cell in page_data(driver)["cells"]  # the first cell whose code the page shows
                 if not {"hide-input", "remove-cell", "remove-input"} & set(cell["tags"]))
    mark = "# kept by {}".format(driver.name)
    driver.type_into_cell(first, mark)
    driver.wait("return document.querySelector(arguments[0]).textContent.includes(arguments[1])", 10,
                "the edit did not appear", "#cell-{} .cell-code".format(first), mark)
    driver.js("window.dispatchEvent(new Event('pagehide'))")
    driver.reload()
    assert mark in driver.text("#cell-{} .cell-code code".format(first))
    driver.click("#cell-{} [data-action=reset]".format(first))


@retried_once_if_the_engine_dies
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


@retried_once_if_the_engine_dies
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


def run_then_stop_a_loop(driver, strings):
    """In the playground: run cell 1 (x = 41), then an endless loop in cell 5, and press Stop while it runs; wait
    until cell 5 is neither running nor queued."""
    driver.click("#cell-1 [data-action=run]")
    wait_state(driver, "#cell-1", "^done$")
    driver.type_into_cell(5, "n = 0\nwhile True:\n    n += 1")
    driver.click("#cell-5 [data-action=run]")
    wait_state(driver, "#cell-5", "^running$")
    driver.click_name(strings["stop"])
    wait_state(driver, "#cell-5", "^(?!running$|queued$)", timeout=10)


@pytest.mark.parametrize("fresh_driver, visit", STOP_CASES, indirect=["fresh_driver"])
@retried_once_if_the_engine_dies
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
    run_then_stop_a_loop(driver, strings)
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


@pytest.mark.parametrize("fresh_driver", ENGINES, indirect=True)
@retried_once_if_the_engine_dies
def test_a_first_visit_downloads_each_runtime_file_once_in_every_engine(fresh_driver, playground_server):
    """The page's head start (runtime-client.js, fetchAhead) and the worker's own reads share one download: the
    server sends each runtime file once (WebKit, which would send it twice, starts without the head start)."""
    driver = fresh_driver
    served_before = len(playground_server.httpd.log)
    driver.open(playground_server.url(PLAYGROUND))
    driver.click("#cell-1 [data-action=run]")
    wait_state(driver, "#cell-1", "^done$")
    runtime = [path for path, _ in playground_server.httpd.log[served_before:] if "/runtime/" in path]
    assert runtime and len(runtime) == len(set(runtime)), "{}: {}".format(driver.name, sorted(runtime))


@pytest.mark.parametrize("fresh_driver", ENGINES, indirect=True)
@retried_once_if_the_engine_dies
def test_a_stopped_cell_is_not_run_again_for_a_cell_below_in_every_engine(fresh_driver, playground_server):
    """Run on a cell below a stopped loop runs the cells above it but not the loop, and says so under it."""
    driver = fresh_driver
    driver.open(playground_server.url(PLAYGROUND))
    driver.wait("return !!navigator.serviceWorker.controller", 60, "the service worker never took the page")
    driver.reload()  # served by the service worker: Stop interrupts in every engine, with no restart
    strings = page_data(driver)["strings"]
    run_then_stop_a_loop(driver, strings)
    driver.click("#cell-6 [data-action=run]")
    wait_state(driver, "#cell-6", "^done$")
    assert driver.text("#cell-5 .out-stopped") == strings["stopped_interrupted"], "the stopped loop ran again"
    assert driver.text("#cell-6 .skip-note") == "{} {}".format(strings["earlier_stopped"].replace("{cell}", "5"),
                                                               strings["run_stopped"].replace("{n}", "5"))
