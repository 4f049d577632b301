"""What Stop's interrupt check costs running code, in Chromium, in one run.

    .venv/bin/python benchmarks/stop_hook.py [--repeats N] [--pyodide-dir DIR --loop-only]

Stop reaches running Python in one of three ways (README, "Stop"): (a) a SharedArrayBuffer interrupt buffer on a
page the service worker made cross-origin isolated; (b) where there is none, a stop flag the service worker keeps,
which the running Python asks for (a clock read at each of the interpreter's interrupt checks, a synchronous
request every 0.1 s); (c) with no service worker, no check at all (Stop ends the worker). This script runs the
same two cells in all three settings, alternating them, each in a fresh browser context:
    sorting   benchmarks/sorting.py's training of the sorting transformer (NumPy-bound, as lessons train)
    loop      a pure-Python loop of 3 million additions (the interpreter's checks at their densest)
and prints each cell's median time and its ratio to setting (c). The cells time themselves in Python.
The site is built with the runtime the build picks (see README), or with `--pyodide-dir`; `--loop-only` leaves
out the sorting cell, for a runtime without NumPy (the npm package alone: node_modules/pyodide).
"""

import argparse
import re
import statistics
import sys
import tempfile
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.append(str(Path(__file__).resolve().parent))  # after tests/: benchmarks/engines.py would shadow tests/engines.py

from sorting import CELL, LINE  # noqa: E402

from support import Server, build_site, launch  # noqa: E402

LOOP = textwrap.dedent('''\
    import time
    start = time.monotonic()
    total = 0
    for i in range(3000000):
        total += i
    print("loop={:.3f}".format(time.monotonic() - start))
''')
LESSON = "---\ntitle: Stop check benchmark\nlanguage: en\norder: 1\nsummary: Benchmark.\n---\n"
CELL_BLOCK = "\n```{{code-cell}} ipython3\n{}```\n"
SETTINGS = {
    "none": "no service worker: no check (Stop ends the worker)",
    "flag": "first visit: the service worker's flag (the stop flag)",
    "buffer": "second visit, isolated: SharedArrayBuffer (the shared buffer)",
}


def run_once(browser, server, setting):
    """The sorting and loop times (s) of one fresh visit in `setting`."""
    from playwright.sync_api import expect

    context = browser.new_context(service_workers="block" if setting == "none" else "allow")
    page = context.new_page()
    page.goto(server.url("01-check/index.html"))
    if setting != "none":
        page.wait_for_function("() => !!navigator.serviceWorker.controller")
    if setting == "buffer":
        page.reload()
    isolated = page.evaluate("self.crossOriginIsolated && typeof SharedArrayBuffer === 'function'")
    controlled = page.evaluate("!!(navigator.serviceWorker && navigator.serviceWorker.controller)")
    assert (isolated, controlled) == {"none": (False, False), "flag": (False, True), "buffer": (True, True)}[setting]
    page.get_by_role("button", name="Run all").click()
    last = page.locator(".cell").last
    expect(last).to_have_attribute("data-state", "done", timeout=600_000)
    output = page.locator("main").inner_text()
    context.close()
    sorting = sum(float(match.group(3)) for match in LINE.finditer(output))
    return sorting, float(re.search(r"loop=([\d.]+)", output).group(1))


def main(argv=None):
    """Run the cells in every setting `repeats` times and print the medians and ratios."""
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pyodide-dir", help="build with this unpacked Pyodide distribution")
    parser.add_argument("--loop-only", action="store_true", help="leave out the sorting cell (no NumPy needed)")
    args = parser.parse_args(argv)
    times = {setting: ([], []) for setting in SETTINGS}
    with tempfile.TemporaryDirectory() as temp:
        lesson = Path(temp) / "lessons" / "01-check"
        lesson.mkdir(parents=True)
        cells = ([] if args.loop_only else [CELL.format(epochs=2)]) + [LOOP]
        (lesson / "lesson.md").write_text(LESSON + "".join(CELL_BLOCK.format(cell) for cell in cells))
        extra = ["--pyodide-dir", args.pyodide_dir] if args.pyodide_dir else []
        site = build_site(lesson.parent, Path(temp) / "_site", *extra)
        found = re.search(r'"version": "([^"]+)", "worker": "(\w+)"', (site / "01-check" / "index.html").read_text())
        runtime = "Pyodide {} ({} worker)".format(*found.groups()) if found else "unknown"
        server = Server(site)
        with sync_playwright() as playwright:
            browser = launch(playwright)
            for _ in range(args.repeats):
                for setting in SETTINGS:
                    sorting, loop = run_once(browser, server, setting)
                    times[setting][0].append(sorting)
                    times[setting][1].append(loop)
            browser.close()
        server.close()
    base = [statistics.median(column) for column in times["none"]]
    print("{:<8} {:>12} {:>7} {:>10} {:>7}  {}".format("setting", "sorting (s)", "ratio", "loop (s)", "ratio", ""))
    for setting, label in SETTINGS.items():
        sorting, loop = (statistics.median(column) for column in times[setting])
        columns = ["-", "-"] if args.loop_only else ["{:.2f}".format(sorting), "{:.3f}".format(sorting / base[0])]
        print("{:<8} {:>12} {:>7} {:>10.3f} {:>7.3f}  {}".format(setting, *columns, loop, loop / base[1], label))
    print("runtime: " + runtime)
    print("median of {} fresh visits each, settings alternated; Chromium, one run, one machine".format(args.repeats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
