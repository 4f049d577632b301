"""Lesson 004's mini-project: its own training cells timed in CPython and in Chromium, in one run.

    .venv/bin/python benchmarks/miniproject.py

Takes lesson 004's cells by their ids (`inicio`, the imports; `mp-dos-bloques`, the data and the
two-block training; `mp-un-bloque`, the one-block training; `mp-un-bloque-6` and `mp-seis-epocas`,
the six-epoch runs that the page's Run all skips), unchanged, and writes them into a lesson (beside
the lesson's own package) with a timing cell around each training. The build runs that lesson in CPython (one BLAS
thread, as the browser has; a fresh line in the first cell keeps its cached outputs from being
reused); then headless Chromium runs the same cells on the runtime the site was built with, with
Run all. Each timing cell prints the seconds since the cell before the training began and the
held-out sequence accuracy of the last epoch. This script prints both runs, their ratio, the goal
(99 % held-out sequences within 15 s in the browser; the one-block run within 15 s) and the
machine's load average before and after.
"""

import os
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / folder) for folder in ("tests", "py")]

from coursebuild.lesson import read_lesson  # noqa: E402
from support import ROOT, Server, build_site, launch  # noqa: E402

LESSON = ROOT / "lessons" / "004-ejercicios-atencion" / "lesson.md"
GOAL_SECONDS, GOAL_ACCURACY = 15.0, 0.99
START = "np.ones(1 << 21).sum()  # warm the allocator before timing (see RUNTIME-NOTES)\n_inicio = time.monotonic()"
REPORT = 'print("{} seconds {{:.2f}} sequences {{:.4f}}".format(time.monotonic() - _inicio, {}[-1]["sequences"]))'
LINE = re.compile(r"^(two|one|one6|two6) seconds ([\d.]+) sequences ([\d.]+)$", re.M)
PACKAGE = LESSON.parent / "ejercicios_atencion"
SLUG = "01-ejercicios-atencion"  # the folder's name makes the page ship the lesson's package
HEADER = "---\ntitle: Mini-project benchmark\nlanguage: es\norder: 1\nsummary: Benchmark.\n---\n\n"


def lesson_cells():
    """The lesson's own code of the imports and of its four trainings (two blocks, one, and both at six epochs)."""
    lesson, errors = read_lesson(LESSON)
    assert not errors, errors
    code = {cell.key: cell.code for cell in lesson.cells}
    return [code[key] for key in ("inicio", "mp-dos-bloques", "mp-un-bloque", "mp-un-bloque-6", "mp-seis-epocas")]


def benchmark_lesson(nonce):
    """The benchmark lesson's source: the lesson's cells, each training between a start and a report cell."""
    imports, two, one, one6, two6 = lesson_cells()
    cells = ["import time\n# run {}\n".format(nonce) + imports, START, two, REPORT.format("two", "historia"),
             START, one, REPORT.format("one", "historia_1"), START, one6, REPORT.format("one6", "historia_1_6"),
             START, two6, REPORT.format("two6", "historia_2_6")]
    return HEADER + "".join("```{{code-cell}} ipython3\n{}\n```\n\n".format(cell) for cell in cells)


def parse(text):
    """{'two': (seconds, sequence accuracy), 'one': (...)} from the report lines."""
    return {m.group(1): (float(m.group(2)), float(m.group(3))) for m in LINE.finditer(text)}


def in_chromium(site, cells):
    """Run every cell of the benchmark page in headless Chromium (Run all) and return its report lines."""
    from playwright.sync_api import expect, sync_playwright

    server = Server(site)
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = browser.new_page()
            page.goto(server.url(SLUG + "/index.html"))
            page.locator("[data-action=run-all]").click()
            expect(page.locator("#cell-{}".format(cells))).to_have_attribute("data-state", "done", timeout=900_000)
            text = "\n".join(page.locator(".cell-output").all_inner_texts())
            browser.close()
    finally:
        server.close()
    return parse(text)


def main():
    """Build (CPython), run in Chromium, print both runs, the ratio and the goal."""
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "lessons" / SLUG
        folder.mkdir(parents=True)
        (folder / PACKAGE.name).symlink_to(PACKAGE, target_is_directory=True)
        source = benchmark_lesson("{}-{}".format(os.getpid(), time.time_ns()))
        (folder / "lesson.md").write_text(source, encoding="utf-8")
        site = build_site(folder.parent, Path(temp) / "_site")
        page_html = (site / SLUG / "index.html").read_text(encoding="utf-8")
        cpython = parse(re.sub(r"<[^>]+>", "\n", page_html))
        browser = in_chromium(site, source.count("```{code-cell}"))
    load_after = os.getloadavg()
    runtime = re.search(r'"version": "([^"]+)", "worker": "(\w+)"', page_html)
    print("lesson 004's mini-project cells (mp-dos-bloques, mp-un-bloque, mp-un-bloque-6, mp-seis-epocas), as the "
          "lesson sets them")
    print("runtime in the browser: Pyodide {} ({} worker)".format(*runtime.groups()) if runtime else "")
    print("load average (1, 5, 15 min): before {:.2f} {:.2f} {:.2f}, after {:.2f} {:.2f} {:.2f}".format(
        *load_before, *load_after))
    for name, label in (("two", "2 blocks"), ("one", "1 block"), ("one6", "1 block, 6 epochs"),
                        ("two6", "2 blocks, 6 epochs")):
        (c_seconds, c_accuracy), (b_seconds, b_accuracy) = cpython[name], browser[name]
        print("{}: held-out sequences {:.1%} (CPython) / {:.1%} (browser); {:.2f} s / {:.2f} s, ratio {:.1f}x".format(
            label, c_accuracy, b_accuracy, c_seconds, b_seconds, b_seconds / c_seconds))
    two_seconds, two_accuracy = browser["two"]
    met = two_accuracy >= GOAL_ACCURACY and two_seconds <= GOAL_SECONDS and browser["one"][0] <= GOAL_SECONDS
    print("goal: >= {:.0%} held-out sequences in <= {:.0f} s in the browser, one block <= {:.0f} s: {}".format(
        GOAL_ACCURACY, GOAL_SECONDS, GOAL_SECONDS, "met" if met else "missed"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
