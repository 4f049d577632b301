"""A lesson's own training cells, timed in CPython and in Chromium in one run (miniproject.py, bridge.py).

Takes cells of a lesson by their ids, unchanged, and writes them into a benchmark lesson beside the lesson's own
package, with a cell that starts a clock before each training and one after it that prints the seconds and the
held-out sequence accuracy. The build runs that lesson in CPython (one BLAS thread, as the browser has; a fresh line
in the first cell keeps its cached outputs from being reused); then headless Chromium runs the same cells on the
runtime the site was built with, by Run all. Times are taken inside Python: data and training, not Pyodide's start.
"""

import os
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / folder) for folder in ("tests", "py")]

from coursebuild.lesson import read_lesson  # noqa: E402
from support import ROOT, Server, build_site, launch  # noqa: E402, F401 (ROOT: for the scripts that import this one)

START = "np.ones(1 << 21).sum()  # warm the allocator before timing (see RUNTIME-NOTES)\n_start = time.monotonic()"
REPORT = 'print("{} seconds {{:.2f}} sequences {{:.4f}}".format(time.monotonic() - _start, {}))'
LINE = re.compile(r"^(\w+) seconds ([\d.]+) sequences ([\d.]+)$", re.M)


@dataclass(frozen=True)
class Training:
    """A training cell to time: its id, the one word its report line starts with, and the expression (run after
    the cell) that gives its held-out sequence accuracy."""
    key: str
    name: str
    accuracy: str


def benchmark_source(lesson_file, keys, trainings, language):
    """The benchmark lesson: the cells named by keys, in that order, each training between a start and a report."""
    lesson, errors = read_lesson(lesson_file)
    assert not errors, errors
    code = {cell.key: cell.code for cell in lesson.cells}
    timed = {training.key: training for training in trainings}
    cells = ["import time\n# run {}-{}\n".format(os.getpid(), time.time_ns())]
    for key in keys:
        training = timed.get(key)
        cells += [START, code[key], REPORT.format(training.name, training.accuracy)] if training else [code[key]]
    header = "---\ntitle: Training benchmark\nlanguage: {}\norder: 1\nsummary: Benchmark.\n---\n\n".format(language)
    return header + "".join("```{{code-cell}} ipython3\n{}\n```\n\n".format(cell) for cell in cells)


def parse(text):
    """{name: (seconds, held-out sequence accuracy)} from the report lines."""
    return {m.group(1): (float(m.group(2)), float(m.group(3))) for m in LINE.finditer(text)}


def in_chromium(site, slug, cells):
    """Run every cell of the benchmark page in headless Chromium (Run all) and return its report lines."""
    from playwright.sync_api import expect, sync_playwright

    server = Server(site)
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = browser.new_page()
            page.goto(server.url(slug + "/index.html"))
            page.locator("[data-action=run-all]").click()
            expect(page.locator("#cell-{}".format(cells))).to_have_attribute("data-state", "done", timeout=900_000)
            text = "\n".join(page.locator(".cell-output").all_inner_texts())
            browser.close()
    finally:
        server.close()
    return parse(text)


def time_trainings(lesson_file, package, keys, trainings):
    """Build the benchmark lesson in CPython, run it in Chromium; print the runtime and the load average, and
    return ({name: (seconds, accuracy)} in CPython, the same in the browser)."""
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    load_before = os.getloadavg()
    language = read_lesson(lesson_file)[0].language
    with tempfile.TemporaryDirectory() as temp:
        slug = "01-" + package.name.replace("_", "-")  # the folder's name makes the page ship the lesson's package
        folder = Path(temp) / "lessons" / slug
        folder.mkdir(parents=True)
        (folder / package.name).symlink_to(package, target_is_directory=True)
        source = benchmark_source(lesson_file, keys, trainings, language)
        (folder / "lesson.md").write_text(source, encoding="utf-8")
        site = build_site(folder.parent, Path(temp) / "_site")
        page_html = (site / slug / "index.html").read_text(encoding="utf-8")
        cpython = parse(re.sub(r"<[^>]+>", "\n", page_html))
        browser = in_chromium(site, slug, source.count("```{code-cell}"))
    load_after = os.getloadavg()
    runtime = re.search(r'"version": "([^"]+)", [^{}]*?"worker": "(\w+)"', page_html)
    print("runtime in the browser: Pyodide {} ({} worker)".format(*runtime.groups()) if runtime else "")
    print("load average (1, 5, 15 min): before {:.2f} {:.2f} {:.2f}, after {:.2f} {:.2f} {:.2f}".format(
        *load_before, *load_after))
    return cpython, browser


def report(label, cpython, browser):
    """One line: held-out sequences and seconds in both runs, and their ratio."""
    (c_seconds, c_accuracy), (b_seconds, b_accuracy) = cpython, browser
    print("{}: held-out sequences {:.1%} (CPython) / {:.1%} (browser); {:.2f} s / {:.2f} s, ratio {:.1f}x".format(
        label, c_accuracy, b_accuracy, c_seconds, b_seconds, b_seconds / c_seconds))
