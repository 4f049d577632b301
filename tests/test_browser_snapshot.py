"""A later start restores a fresh interpreter's memory: on Pyodide 314 a start from the cached runtime copies
Python's memory before anything of the course runs in it, the service worker keeps it in the runtime's cache, and
every later start of any lesson restores it instead of starting Python again (site/worker/worker-handler.js,
startInterpreter). A first visit makes no copy, so that its first output waits for nothing more. The legacy
runtime has no snapshots and keeps none."""

import json
import re

import pytest
from playwright.sync_api import expect

from support import edit_cell

PLAYGROUND = "01-playground/index.html"
# The runtime's cache name and the snapshot's URL, as the page knows them.
WHERE = """() => {
  const runtime = JSON.parse(document.getElementById("page-data").textContent).runtime;
  return [runtime.cache, new URL("../runtime/course-snapshot.bin.gz", document.baseURI).href];
}"""
STORED_BYTES = """async ([cache, url]) => {
  if (!(await caches.has(cache))) return 0;
  const response = await (await caches.open(cache)).match(url);
  return response ? (await response.arrayBuffer()).byteLength : 0;
}"""
FROM_SNAPSHOT = "() => performance.getEntriesByName('course-python-from-snapshot').length > 0"


def where(page):
    return page.evaluate(WHERE)


def wait_for_snapshot(page, bigger_than=0):
    """Wait until the runtime's cache holds a snapshot of more than `bigger_than` bytes; return its size."""
    for _ in range(120):
        size = page.evaluate(STORED_BYTES, where(page))
        if size > bigger_than:
            return size
        page.wait_for_timeout(500)
    raise AssertionError("no snapshot of more than {} bytes stored within 60 s".format(bigger_than))


def run_all(page):
    page.locator("[data-action=run-all]").click()
    expect(page.locator("#cell-5")).to_have_attribute("data-state", "done", timeout=120_000)


def outputs(page, cells=range(1, 6)):
    """What each cell's output shows, by cell number (the playground's five by default)."""
    return {number: "".join(page.locator("#cell-{} .cell-output .out".format(number)).all_text_contents())
            for number in cells}


def ready(page):
    expect(page.locator("body")).to_have_attribute("data-runtime", "ready", timeout=120_000)


def store_a_snapshot(page, url):
    """A first visit (which makes no copy), then a warm one, whose idle start makes the copy; returns its size."""
    page.goto(url)
    page.locator("#cell-1 [data-action=run]").click()
    ready(page)
    page.reload()
    ready(page)
    return wait_for_snapshot(page)


def test_a_later_start_restores_the_interpreter_and_the_cells_still_reproduce_the_build(page, playground_server_314):
    page.goto(playground_server_314.url(PLAYGROUND))
    built = outputs(page)
    run_all(page)
    assert not page.evaluate(FROM_SNAPSHOT)
    page.wait_for_timeout(2000)  # time enough for a copy to be stored, were one made
    assert page.evaluate(STORED_BYTES, where(page)) == 0  # the first visit's start makes none
    page.reload()
    run_all(page)
    assert not page.evaluate(FROM_SNAPSHOT)  # the runtime is cached now: a fresh start, which makes the copy
    size = wait_for_snapshot(page)
    assert 1_000_000 < size < 20_000_000, size  # gzipped: about 6 MB of Pyodide 314's 31 MB
    page.reload()
    run_all(page)
    assert page.evaluate(FROM_SNAPSHOT)
    assert outputs(page) == built


def test_each_restored_start_draws_new_random_numbers(page, playground_server_314):
    store_a_snapshot(page, playground_server_314.url(PLAYGROUND))
    drawn = []
    for _ in range(2):
        page.reload()
        edit_cell(page, 1, "import random\nprint(random.random())")  # the edit survives the reload
        page.locator("#cell-1 [data-action=run]").click()
        expect(page.locator("#cell-1")).to_have_attribute("data-state", "done", timeout=120_000)
        assert page.evaluate(FROM_SNAPSHOT)
        drawn.append(page.locator("#cell-1 .cell-output .out").text_content())
    assert re.fullmatch(r"0\.\d+\n", drawn[0]) and drawn[0] != drawn[1], drawn


def test_a_damaged_snapshot_is_left_for_a_fresh_start_which_replaces_it(page, playground_server_314):
    store_a_snapshot(page, playground_server_314.url(PLAYGROUND))
    # A well-formed gzip whose contents are no Pyodide memory: Pyodide refuses it (its magic number).
    page.evaluate("""async ([cache, url]) => {
      const packed = new Blob([new Uint8Array(1 << 20)]).stream().pipeThrough(new CompressionStream("gzip"));
      await (await caches.open(cache)).put(url, new Response(await new Response(packed).blob()));
    }""", where(page))
    damaged = page.evaluate(STORED_BYTES, where(page))
    page.reload()
    run_all(page)
    assert not page.evaluate(FROM_SNAPSHOT)
    wait_for_snapshot(page, bigger_than=damaged)
    page.reload()
    run_all(page)
    assert page.evaluate(FROM_SNAPSHOT)


def test_the_legacy_runtime_keeps_no_snapshot(page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    run_all(page)
    runtime = json.loads(page.locator("#page-data").text_content())["runtime"]
    assert runtime["worker"] == "classic"
    page.wait_for_timeout(2000)  # time enough for a copy to be stored, were one made
    assert page.evaluate(STORED_BYTES, where(page)) == 0
    page.reload()
    run_all(page)
    assert not page.evaluate(FROM_SNAPSHOT)


def test_a_numpy_lesson_restored_from_a_snapshot_reproduces_the_build(page, course_server, course_site):
    # NumPy loads after the restore (the copy is taken before any package): the official runtime's case. The
    # legacy runtime keeps no snapshot (the test above), so where the course is built on it there is nothing to try.
    lesson = "003-odna-holova"
    data = json.loads(re.search(r'id="page-data">(.*?)</script>',
                                (course_site / lesson / "index.html").read_text(), re.S).group(1))
    if data["runtime"]["worker"] != "module":
        pytest.skip("the course is built on the legacy runtime, which has no snapshots")
    store_a_snapshot(page, course_server.url(lesson + "/index.html"))
    page.reload()
    cells = [cell["id"] for cell in data["cells"] if not cell["skip_run_all"]]  # what Run all runs
    built = outputs(page, cells)
    page.locator("[data-action=run-all]").click()
    expect(page.locator("#cell-{}".format(cells[-1]))).to_have_attribute("data-state", re.compile("done|failed"),
                                                                         timeout=300_000)
    assert page.evaluate(FROM_SNAPSHOT)
    assert outputs(page, cells) == built
