"""Memory: the Python worker after each lesson's Run all and after three in a row, and what a warm idle start costs.

    .venv/bin/python benchmarks/memory.py [PAGE ...]      (make benchmark runs it, on every lesson page)

PAGE names a lesson page as the site does ("003-odna-holova", "003-odna-holova/en"); none means every one.

Builds the course and opens each lesson page on a warm visit (the runtime in the service worker's cache, so
Python starts when the page is idle), then presses Run all three times, waiting each time until no cell is
queued or running. After each Run all, with a garbage collection first in the worker (DevTools'
HeapProfiler.collectGarbage) and in Python (gc.collect()), it reads three measures:
    wasm      Pyodide's WebAssembly memory (its HEAP8's length): everything Python and NumPy hold lives in it;
              it grows and never shrinks, so it is the high-water mark of Python's heap
    objects   the objects Python's garbage collector tracks (len(gc.get_objects())), which frees do bring down
              (sys.getallocatedblocks() would be closer, but Pyodide's CPython is built without pymalloc: it says 0)
    js heap   the worker's JavaScript heap in use (Runtime.getHeapUsage), where Pyodide's proxies live
    renderer  the anonymous resident memory (RssAnon) of the browser's renderer processes: page, workers and
              service worker together, as the operating system counts it
The worker is reached through DevTools (benchmarks/targets.py); Python is read with the worker's own
pyodide.runPython between two Runs, when the worker is idle. (performance.measureUserAgentSpecificMemory()
would need cross-origin isolation, which later visits have, but Chromium answers it only after a garbage
collection it schedules itself, up to 20 s later, and it splits the figure by frame, not by heap kind.)

The cost of a warm idle start: the renderers' memory with the page loaded and its worker created but held
before its first line (DevTools' waitForDebuggerOnStart), against the same once the worker was let go and
Python is ready, no cell run. It is measured first, in a renderer that has never run Python: the runtime cache is
filled by fetching its files from a page (through the service worker, which keeps them), since a renderer keeps
the memory an earlier worker freed and would hide the start's cost.
"""

import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests"), str(Path(__file__).resolve().parent)]

from slow_phone import browser_pid, renderers  # noqa: E402
from targets import Targets  # noqa: E402

from support import ROOT, Server, build_site, launch, lesson_pages  # noqa: E402

RUNS = 3
MB = 1024 * 1024
RUN_ALL = """() => new Promise((resolve) => {
  let finished = 0;
  document.addEventListener("run-finished", () => { finished += 1; });
  document.querySelector(".runtime-bar [data-action=run-all]").click();
  const poll = () => {
    const busy = document.querySelector(".cell[data-state=queued], .cell[data-state=running]");
    if (finished && !busy) {
      const states = [...document.querySelectorAll(".cell")].map((cell) => cell.dataset.state || "");
      return resolve([finished, states.filter((state) => state === "failed").length]);
    }
    setTimeout(poll, 100);
  };
  poll();
})"""
WASM = "(self.pyodide._module || self.pyodide).HEAP8.length"
OBJECTS = "self.pyodide.runPython('import gc; gc.collect(); len(gc.get_objects())')"


def rss_anon(pids):
    """Bytes of anonymous resident memory of these processes (those that still exist)."""
    total = 0
    for pid in pids:
        try:
            with open("/proc/{}/status".format(pid)) as status:
                for line in status:
                    if line.startswith("RssAnon:"):
                        total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def read(targets, session, pid):
    """Every measure, after a garbage collection in the worker: {wasm, objects, js heap, renderer} (bytes, count)."""
    found = {"objects": targets.evaluate(session, OBJECTS)}
    targets.call(session, "HeapProfiler.collectGarbage")
    found["wasm"] = targets.evaluate(session, WASM)
    found["js heap"] = targets.call(session, "Runtime.getHeapUsage")["usedSize"]
    found["renderer"] = rss_anon(renderers(pid))
    return found


FETCH_RUNTIME = """async () => {
  const data = JSON.parse(document.getElementById("page-data").textContent);
  const names = [...data.runtime.files.map((file) => file.name), ...(data.runtime.wheels || []).map((wheel) => wheel.file)];
  for (const name of names) await (await fetch(new URL("/runtime/" + name, location))).arrayBuffer();
}"""


def fill_runtime_cache(context, server, lesson):
    """Put every runtime file the lesson's start reads (its wheels too) in the service worker's cache without
    starting Python."""
    page = context.new_page()
    page.goto(server.url(lesson + "/index.html"))
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=60_000)
    page.evaluate(FETCH_RUNTIME)
    page.close()


def ready(page):
    """Wait until the page's Python is ready."""
    page.wait_for_function("() => document.body.dataset.runtime === 'ready'", timeout=300_000)


def idle_start_cost(context, server, lesson, pid):
    """(renderers' memory with the worker held before its first line, the same with Python ready) in bytes."""
    page = context.new_page()
    targets = Targets(context, page, hold=True)
    page.goto(server.url(lesson + "/index.html"))
    cached = page.wait_for_function("() => document.body.dataset.runtimeCached", timeout=60_000).json_value()
    assert cached == "true", "the runtime is not in the service worker's cache: the page would not start on idle"
    targets.worker()
    page.wait_for_timeout(2000)  # let the page settle: its idle start has asked for the worker, now held
    held = rss_anon(renderers(pid))
    targets.release()
    ready(page)
    started = read(targets, targets.worker(), pid)
    page.close()
    return held, started


def run_alls(context, server, lesson, pid):
    """A warm visit of `lesson`: the measures once Python is ready, then after each of RUNS Run alls."""
    page = context.new_page()
    targets = Targets(context, page)
    page.goto(server.url(lesson + "/index.html"))
    ready(page)
    session = targets.worker()
    readings = [read(targets, session, pid)]
    failures = []
    for _ in range(RUNS):
        failures.append(page.evaluate(RUN_ALL)[1])
        readings.append(read(targets, session, pid))
    page.close()
    return readings, failures


def table(lesson, readings, failures):
    """One lesson's lines: each measure ready and after each Run all, and after three / after one."""
    lines = ["{} (failed cells per Run all: {})".format(lesson, ", ".join(map(str, failures)))]
    for key in ("wasm", "objects", "js heap", "renderer"):
        values = [reading[key] for reading in readings]
        shown = ["{:.1f} MB".format(value / MB) if key != "objects" else "{:d}".format(value) for value in values]
        lines.append("  {:9s} ready {:>10s} | after Run all 1, 2, 3: {:>10s} {:>10s} {:>10s} | 3rd / 1st {:.3f}".format(
            key, *shown, values[3] / values[1]))
    return lines


def pages(asked):
    """The lesson pages to measure: those asked for (each must exist), or every one."""
    known = lesson_pages()
    unknown = [page for page in asked if page not in known]
    if unknown:
        raise SystemExit("memory.py: no lesson page {} (known: {})".format(", ".join(unknown), ", ".join(known)))
    return list(asked) or known


def main(asked=()):
    """Build, warm the runtime cache, measure the lesson pages asked for (all by default) in turn, print."""
    from playwright.sync_api import sync_playwright

    measured = pages(asked)
    load = os.getloadavg()[0]
    lines = []
    with tempfile.TemporaryDirectory() as temp:
        site = build_site(ROOT / "lessons", Path(temp) / "_site")
        server = Server(site)
        with sync_playwright() as playwright:
            browser = launch(playwright)
            pid = browser_pid(browser)
            context = browser.new_context()
            fill_runtime_cache(context, server, lesson_pages()[0])
            held, started = idle_start_cost(context, server, lesson_pages()[0], pid)
            ratios = {"wasm": [], "objects": [], "renderer": []}
            for lesson in measured:
                readings, failures = run_alls(context, server, lesson, pid)
                lines += table(lesson, readings, failures)
                for key, values in ratios.items():
                    values.append(readings[3][key] / readings[1][key])
            version = browser.version
            browser.close()
        server.close()
    print("memory, one run, Chromium {}; load average (1 min): {:.2f} before, {:.2f} after".format(
        version, load, os.getloadavg()[0]))
    print("warm idle start, {}: renderers {:.1f} MB with the worker held, {:.1f} MB with Python ready ({:+.1f} MB); "
          "Python's wasm memory {:.1f} MB, the worker's JS heap {:.1f} MB".format(
              lesson_pages()[0], held / MB, started["renderer"] / MB, (started["renderer"] - held) / MB,
              started["wasm"] / MB, started["js heap"] / MB))
    print("\n".join(lines))
    for key, values in ratios.items():
        print("{} after three Run alls / after the first, worst lesson: {:.3f} (goal <= 1.1); median {:.3f}".format(
            key, max(values), statistics.median(values)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
