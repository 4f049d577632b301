"""Sorting benchmark: time to reach 99 % held-out sequence accuracy, in CPython and in Chromium, in one run.

    .venv/bin/python benchmarks/sorting.py

Writes a one-cell lesson that trains the toolkit's transformer to sort 8 digits and
prints when held-out sequence accuracy first reaches 99 %. The build runs that cell
in CPython; then headless Chromium runs the same cell on the runtime the site was
built with. Both print their own timings; this script prints both and their ratio.
"""

import re
import sys
import tempfile
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support import Server, build_site, launch  # noqa: E402

CELL = textwrap.dedent('''\
    import time
    import numpy as np
    from course.nn.models import SequenceTransformer
    from course.nn.train import digit_sequences, train_sequences

    np.ones(1 << 21).sum()  # warm the allocator before timing (see RUNTIME-NOTES)
    X, X_val = digit_sequences(10000, seed=1), digit_sequences(2000, seed=2)
    Y, Y_val = np.sort(X, axis=1), np.sort(X_val, axis=1)
    results = {{}}
    for blocks in (2, 1):
        model = SequenceTransformer(width=32, heads=2, blocks=blocks, hidden=64, seed=0)
        start, reached = time.monotonic(), None
        def note(record):
            global reached
            if reached is None and record["sequences"] >= 0.99:
                reached = (record["epoch"], time.monotonic() - start)
        history = await train_sequences(model, X, Y, X_val, Y_val, epochs={epochs}, batch=64, lr=1e-2,
                                        on_epoch=note, report=False)
        total = time.monotonic() - start
        print("blocks={{}} final={{:.4f}} total={{:.2f}} reached={{}}".format(
            blocks, history[-1]["sequences"], total, "none" if reached is None else "{{}}@{{:.2f}}".format(*reached)))
''')
LESSON = "---\ntitle: Sorting benchmark\nlanguage: en\norder: 1\nsummary: Benchmark.\n---\n\n```{{code-cell}} ipython3\n{}```\n"
LINE = re.compile(r"blocks=(\d) final=([\d.]+) total=([\d.]+) reached=(\S+)")


def parse(text):
    return {int(m.group(1)): (float(m.group(2)), float(m.group(3)), m.group(4)) for m in LINE.finditer(text)}


def main(epochs=2):
    from playwright.sync_api import expect, sync_playwright

    with tempfile.TemporaryDirectory() as temp:
        lessons = Path(temp) / "lessons" / "01-sort"
        lessons.mkdir(parents=True)
        (lessons / "lesson.md").write_text(LESSON.format(CELL.format(epochs=epochs)))
        site = build_site(lessons.parent, Path(temp) / "_site")
        page_html = (site / "01-sort" / "index.html").read_text()
        cpython = parse(page_html)
        server = Server(site)
        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = browser.new_page()
            page.goto(server.url("01-sort/index.html"))
            page.locator("#cell-1 [data-action=run]").click()
            expect(page.locator("#cell-1")).to_have_attribute("data-state", "done", timeout=600_000)
            browser_results = parse(page.locator("#cell-1 .cell-output").inner_text())
            browser.close()
        server.close()
    runtime = re.search(r'"version": "([^"]+)", "worker": "(\w+)"', page_html.replace("\\u003c", "<"))
    print("runtime in the browser: Pyodide {} ({} worker)".format(*runtime.groups()) if runtime else "")
    print("task: sort 8 digits; width 32, 2 heads, MLP 64, batch 64, Adam 1e-2 with warm-up and cosine decay;")
    print("      10,000 training and 2,000 held-out sequences, {} epochs".format(epochs))
    for blocks in (2, 1):
        c, b = cpython[blocks], browser_results[blocks]
        print("{} block(s): held-out sequence accuracy {:.1%} (CPython) / {:.1%} (browser)".format(blocks, c[0], b[0]))
        print("   reached 99 % (epoch@seconds): CPython {} / browser {}".format(c[2], b[2]))
        print("   whole training: CPython {:.2f} s, browser {:.2f} s, ratio {:.1f}x".format(c[1], b[1], b[1] / c[1]))


if __name__ == "__main__":
    main()
