"""Lesson 003's experiments: time to the stated result, in CPython and in Chromium, in one run.

    .venv/bin/python benchmarks/experiments.py

Writes a lesson with one cell per experiment (odna_holova.*, lesson 003's package): each trains or steps,
prints its result, then a line "seconds NAME S" timed around the training (or the stepper
action) alone. The build runs the cells in CPython; headless Chromium then runs the same
cells on the runtime the site was built with. This script prints both timings, their ratio,
the budget, and whether the browser printed exactly what the build printed.
OpenBLAS runs on one thread (as NumPy does in WebAssembly): on a shared 2-core machine its
threads otherwise slow the CPython side down by up to 100x.
"""

import os
import re
import shutil
import sys
import tempfile
import textwrap
import time
from pathlib import Path

os.environ["OPENBLAS_NUM_THREADS"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support import ROOT, Server, build_site, launch  # noqa: E402

CELLS = {
    "sense": '''\
        import time
        import numpy as np
        from odna_holova import sense
        np.ones(1 << 21).sum()  # warm the allocator before timing (see RUNTIME-NOTES)
        model = sense.build()
        start = time.monotonic()
        record = await sense.train(model)
        took = time.monotonic() - start
        sense.show_predictions(model, sense.SENSE_DATA)
        sense.show_parameters(model)
        print("seconds sense {:.3f}".format(took))
        ''',
    "features": '''\
        from odna_holova import features
        head = features.build()
        start = time.monotonic()
        record = await features.train(head)
        took = time.monotonic() - start
        features.show_recovery(head)
        features.show_held_out(head)
        features.show_interventions(head)
        print("seconds features {:.3f}".format(took))
        ''',
    "labels": '''\
        from odna_holova import labels
        model = labels.build()
        start = time.monotonic()
        record = await labels.train(model)
        took = time.monotonic() - start
        labels.show_table(model)
        print("seconds labels {:.3f}".format(took))
        ''',
    "induction": '''\
        from odna_holova import induction
        model = induction.build()
        start = time.monotonic()
        record = await induction.train(model)
        took = time.monotonic() - start
        print("loss every 25 steps:", " ".join("{:.3f}".format(x) for x in record["step_losses"][::25]))
        induction.show_scores(model)
        induction.show_ablations(model)
        print("seconds induction {:.3f}".format(took))
        ''',
    "stepper": '''\
        from odna_holova import walkthrough
        first = walkthrough.PRECOMPUTED
        start = time.monotonic()
        cold = walkthrough.state(first)
        cold_took = time.monotonic() - start
        start = time.monotonic()
        warm = walkthrough.state(first + 1)
        took = time.monotonic() - start
        for found in (cold, warm):
            print("update", found["update"], "loss {:.4f}".format(found["stages"][5]["loss"]))
        print("seconds stepper-cold {:.4f}".format(cold_took))
        print("seconds stepper {:.4f}".format(took))
        ''',
}
BUDGETS = {"sense": 3.0, "features": 5.0, "labels": 3.0, "induction": 30.0, "stepper": 0.1, "stepper-cold": 0.1}
LESSON = "---\ntitle: Experiments benchmark\nlanguage: en\norder: 1\nsummary: Benchmark.\n---\n\n{}"
CELL = "```{{code-cell}} ipython3\n{}```\n\n"
SECONDS = re.compile(r"^seconds (\S+) ([\d.]+)$", re.M)


def lesson_text():
    """The fixture lesson; a comment with the time makes the build run the cells afresh (no cached outputs)."""
    cells = [textwrap.dedent(code) for code in CELLS.values()]
    cells[0] = "# run {}\n".format(time.time_ns()) + cells[0]
    return LESSON.format("".join(CELL.format(code) for code in cells))


def split(text):
    """(the printed result without timing lines, {name: seconds})."""
    return SECONDS.sub("", text).strip(), {name: float(value) for name, value in SECONDS.findall(text)}


def built_outputs(page):
    """Each cell's output as the build wrote it into the page."""
    return [page.locator("#cell-{} .cell-output".format(i + 1)).inner_text() for i in range(len(CELLS))]


def main():
    from playwright.sync_api import expect, sync_playwright

    with tempfile.TemporaryDirectory() as temp:
        lessons = Path(temp) / "lessons" / "01-odna-holova"  # the folder's name makes lesson 003's package its own
        lessons.mkdir(parents=True)
        shutil.copytree(ROOT / "lessons" / "003-odna-holova" / "odna_holova", lessons / "odna_holova")
        (lessons / "lesson.md").write_text(lesson_text())
        site = build_site(lessons.parent, Path(temp) / "_site")
        page_html = (site / "01-experiments" / "index.html").read_text()
        server = Server(site)
        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = browser.new_page()
            page.goto(server.url("01-experiments/index.html"))
            built = built_outputs(page)
            ran = []
            for i in range(len(CELLS)):
                page.locator("#cell-{} [data-action=run]".format(i + 1)).click()
                expect(page.locator("#cell-{}".format(i + 1))).to_have_attribute("data-state", re.compile("done|failed"),
                                                                                 timeout=600_000)
                ran.append(page.locator("#cell-{} .cell-output".format(i + 1)).inner_text())
            browser.close()
        server.close()
    runtime = re.search(r'"version": "([^"]+)", "worker": "(\w+)"', page_html.replace("\\u003c", "<"))
    print("runtime in the browser: Pyodide {} ({} worker)".format(*runtime.groups()) if runtime else "")
    print("{:<13} {:>9} {:>9} {:>7} {:>8}  same output".format("experiment", "CPython", "browser", "ratio", "budget"))
    for build_text, browser_text in zip(built, ran):
        build_result, build_seconds = split(build_text)
        browser_result, browser_seconds = split(browser_text)
        for timed in build_seconds:
            c, b = build_seconds[timed], browser_seconds.get(timed, float("nan"))
            print("{:<13} {:8.3f}s {:8.3f}s {:6.1f}x {:7.2f}s  {}".format(
                timed, c, b, b / c if c else float("nan"), BUDGETS[timed], build_result == browser_result))
        if build_result != browser_result:
            print("  build printed:\n" + textwrap.indent(build_result, "    "))
            print("  browser printed:\n" + textwrap.indent(browser_result, "    "))


if __name__ == "__main__":
    main()
