"""The toolkit's GPT of the default size: time per training step and per sampled token, in CPython and in Chromium.

    .venv/bin/python benchmarks/gpt.py [--steps 200] [--batch 32] [--browser]

One cell trains course.nn.gpt.GPT with its default sizes on windows of random ids over a vocabulary of 36 (the
size of lessons/corpora/es.txt's; a step's time does not depend on the text), after a few untimed steps that
warm the allocator and the caches, and prints the median and mean time of a step, then the time per token of
sampling 50 tokens with generate(), and checks that a checkpoint saved and loaded again gives the same logits.
Without --browser the cell runs here (one BLAS thread, as the browser has). With --browser it is written into a
one-cell lesson: the build runs it in CPython, headless Chromium runs it on the runtime the site was built with,
and the script prints both and their ratio, measured in one run.
"""

import argparse
import os
import re
import sys
import tempfile
import textwrap
from pathlib import Path

os.environ["OPENBLAS_NUM_THREADS"] = "1"  # before NumPy loads: the browser has one thread
ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "tests")]

CELL = textwrap.dedent('''\
    import io, platform, statistics, time
    import numpy as np
    from course.nn.gpt import GPT, GPTTraining, generate, load, save, windows

    np.ones(1 << 21).sum()  # warm the allocator before timing (see RUNTIME-NOTES)
    model = GPT(36)
    X, Y = windows(np.random.default_rng(0).integers(0, 36, size=15000), model.length)
    training = GPTTraining(model, X, Y, batch={batch})
    for _ in range(5):
        training.step()
    times = []
    for _ in range({steps}):
        start = time.perf_counter()
        training.step()
        times.append(time.perf_counter() - start)
    start = time.perf_counter()
    generate(model, [0], 50, np.random.default_rng(0))
    token = (time.perf_counter() - start) / 50
    file = io.BytesIO()
    save(model, file)
    file.seek(0)
    same = bool(np.array_equal(load(file).forward(X[:2])[0], model.forward(X[:2])[0]))
    print("python={{}} numpy={{}}".format(platform.python_version(), np.__version__))
    print("parameters={{}} step_median={{:.2f}} step_mean={{:.2f}} token={{:.2f}} checkpoint_kb={{}} same={{}}".format(
        model.count(), 1000 * statistics.median(times), 1000 * statistics.mean(times), 1000 * token,
        len(file.getvalue()) // 1024, same))
''')
LESSON = "---\ntitle: GPT benchmark\nlanguage: en\norder: 1\nsummary: Benchmark.\n---\n\n```{{code-cell}} ipython3\n{}```\n"
VERSIONS = re.compile(r"python=(\S+) numpy=(\S+)")
LINE = re.compile(r"parameters=(\d+) step_median=([\d.]+) step_mean=([\d.]+) token=([\d.]+) checkpoint_kb=(\d+) "
                  r"same=(\w+)")


def parse(text):
    """The cell's report as (parameters, step median ms, step mean ms, ms per token, checkpoint KB, same,
    "Python x, NumPy y")."""
    m, v = LINE.search(text), VERSIONS.search(text)
    return (int(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4)), int(m.group(5)), m.group(6),
            "Python {}, NumPy {}".format(*v.groups()))


def in_cpython(code):
    """Run the cell here and return what it printed."""
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<gpt benchmark>", "exec"), {})
    return out.getvalue()


def in_both(code):
    """Build a one-cell lesson of `code` (the build runs it in CPython) and run it in headless Chromium: the page as
    built and what the cell printed in the browser."""
    from playwright.sync_api import expect, sync_playwright

    from support import Server, build_site, launch
    with tempfile.TemporaryDirectory() as temp:
        lesson = Path(temp) / "lessons" / "01-gpt"
        lesson.mkdir(parents=True)
        (lesson / "lesson.md").write_text(LESSON.format(code), encoding="utf-8")
        site = build_site(lesson.parent, Path(temp) / "_site")
        page_html = (site / "01-gpt" / "index.html").read_text(encoding="utf-8")
        server = Server(site)
        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = browser.new_page()
            page.goto(server.url("01-gpt/index.html"))
            page.locator("#cell-1 [data-action=run]").click()
            expect(page.locator("#cell-1")).to_have_attribute("data-state", "done", timeout=600_000)
            browser_text = page.locator("#cell-1 .cell-output").inner_text()
            browser.close()
        server.close()
    return page_html, browser_text


def report(name, found):
    """One line of figures for one interpreter."""
    print("{:9} ({}) step median {:.2f} ms, mean {:.2f} ms; sampling {:.2f} ms per token; checkpoint {} KB, "
          "loads back the same: {}".format(name, found[6], *found[1:6]))


def main(argv=None):
    """Print the default GPT's per-step and per-token times in CPython, and with --browser in Chromium too."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--browser", action="store_true", help="also run the cell in headless Chromium")
    args = parser.parse_args(argv)
    code = CELL.format(steps=args.steps, batch=args.batch)
    print("GPT(36): default sizes, batch {}, {} timed steps".format(args.batch, args.steps))
    if not args.browser:
        found = parse(in_cpython(code))
        print("parameters: {}".format(found[0]))
        report("CPython", found)
        return 0
    page_html, browser_text = in_both(code)
    cpython, browser = parse(page_html), parse(browser_text)
    print("parameters: {}".format(cpython[0]))
    report("CPython", cpython)
    report("browser", browser)
    print("ratio browser / CPython: step (median) {:.1f}x, token {:.1f}x".format(browser[1] / cpython[1],
                                                                              browser[3] / cpython[3]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
