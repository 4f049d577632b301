"""Startup against the peers, in one Chromium run on the same Pyodide files: our lesson, bare Pyodide, PyScript.

    .venv/bin/python benchmarks/peers.py      (make benchmark runs it after startup.py)

Builds a one-cell lesson on the Pyodide this machine can build for every page (the official release with
its NumPy wheel where that wheel can be had, an `import numpy` cell; else Pyodide 314's core from npm and a
`print(1)` cell, since PyScript 0.7 cannot drive the legacy 0.17 distribution), adds four peer pages that
load the very same files from the same server on 127.0.0.1 (a bare loadPyodide() page in the main thread and
one in a module worker; @pyscript/core from npm as a `<script type="py">` page and as a `py-editor` page,
its `interpreter` pointed at the local pyodide.mjs), and measures each page the same way, in fresh browser
contexts: page load -> first output (cold and warm cache), bytes sent before that output, click -> output
after 3 s of idle (cold and warm), after 3 s of hover, and a warm re-run. Times are taken inside the page
(performance.now() against the click event or the navigation start), so the driver adds nothing. Every
request any page, worker or service worker makes is watched; one that leaves 127.0.0.1 fails the run.
"""

import argparse
import http.server
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / folder) for folder in ("tests", "py")]

from loopback import Guard, launch, start_playwright  # noqa: E402

from coursebuild import runtime as runtimes  # noqa: E402
from coursebuild import serve  # noqa: E402
from support import ROOT, build_site  # noqa: E402

REPEATS = 5
IDLE_MS = 3000
# The marks our page sets on its way to a warm start (site/page/main.js, runtime-client.js), in their order,
# and on a first visit's start, clicked at once: the worker waits for the service worker's control.
STEPS = ("course-cache-looked", "course-start-decided", "course-idle-start", "course-worker-created",
         "course-python-from-snapshot", "course-python-ready")
COLD_STEPS = ("course-registered", "course-load-began", "course-worker-created", "course-python-ready")
MARKS = ("() => Object.fromEntries(performance.getEntriesByType('mark')"
         ".filter((m) => m.name.startsWith('course-')).map((m) => [m.name, m.startTime]))")
TIMEOUT_MS = 120_000
PYSCRIPT = ROOT / "node_modules" / "@pyscript" / "core"
LESSON = "01-startup/index.html"
LESSON_SOURCE = """---
title: Startup
language: en
order: 1
summary: One cell, for the startup benchmark against the peers.
---

```{{code-cell}} ipython3
{code}
```
"""

BARE_MAIN = """<!doctype html><meta charset="utf-8"><title>bare Pyodide, main thread</title>
<button id="run">Run</button><pre id="output"></pre>
<script type="module">
import {{ loadPyodide }} from "../runtime/pyodide.mjs";
const output = document.getElementById("output");
const py = await loadPyodide({{indexURL: new URL("../runtime/", location).href,
  stdout: (line) => {{ output.textContent += line + "\\n"; }}}});
if ({packages}.length) await py.loadPackage({packages});  // an empty call would print a line
py.runPython({code});
document.getElementById("run").addEventListener("click", () => py.runPython({code}));
</script>"""
BARE_WORKER_PAGE = """<!doctype html><meta charset="utf-8"><title>bare Pyodide, worker</title>
<button id="run">Run</button><pre id="output"></pre>
<script type="module">
const output = document.getElementById("output");
const worker = new Worker("bare-worker.mjs", {type: "module"});
worker.onmessage = (event) => { output.textContent += event.data + "\\n"; };
worker.postMessage("run");
document.getElementById("run").addEventListener("click", () => worker.postMessage("run"));
</script>"""
BARE_WORKER = """import {{ loadPyodide }} from "../runtime/pyodide.mjs";
const ready = loadPyodide({{indexURL: new URL("../runtime/", location).href, stdout: (line) => postMessage(line)}})
  .then(async (py) => {{ if ({packages}.length) await py.loadPackage({packages}); return py; }});
onmessage = async () => (await ready).runPython({code});
"""
# PyScript sends print() to the console unless a terminal (xterm.js, more to load) is asked for.
PYSCRIPT_PAGE = """<!doctype html><meta charset="utf-8"><title>PyScript script</title>
<link rel="stylesheet" href="../pyscript/core.css"><script type="module" src="../pyscript/core.js"></script>
<button id="run" py-click="run_cell">Run</button>
<script type="py" config='{config}'>
{code}

def run_cell(event):
{indented}
</script>"""
PY_EDITOR_PAGE = """<!doctype html><meta charset="utf-8"><title>PyScript py-editor</title>
<link rel="stylesheet" href="../pyscript/core.css"><script type="module" src="../pyscript/core.js"></script>
<body><script type="py-editor" config='{config}'>{code}</script>"""


class Page:
    """One page under test: where it is, what to click, where its output shows, whether it runs on load."""

    def __init__(self, name, path, run, output, autorun):
        self.name, self.path, self.run, self.output, self.autorun = name, path, run, output, autorun


# Columns of the table: ours; bare Pyodide in the main thread and in a worker; PyScript <script type="py">
# and py-editor.
PAGES = [
    Page("ours", LESSON, "#cell-1 [data-action=run]", "#cell-1 .cell-output[data-origin=live]", False),
    Page("bare main", "peers/bare-main.html", "#run", "#output", True),
    Page("bare worker", "peers/bare-worker.html", "#run", "#output", True),
    Page("PyScript py", "peers/pyscript.html", "#run", None, True),
    Page("py-editor", "peers/py-editor.html", ".py-editor-run-button", ".py-editor-output", False),
]

# Installed before any script of the page: notes each click and each first appearance of the output ("1").
PROBE = """(() => {
  const selector = %s;
  const bench = window.__bench = {outputs: [], clicks: [], seen: false};
  const note = () => bench.outputs.push(performance.now());
  bench.reset = () => {
    bench.seen = false;
    const element = selector && document.querySelector(selector);
    if (element) element.textContent = "";
  };
  addEventListener("click", () => bench.clicks.push(performance.now()), true);
  if (selector === null) {
    const log = console.log;
    console.log = function (...args) {
      if (String(args[0]).trim() === "1") note();
      return log.apply(this, args);
    };
    return;
  }
  new MutationObserver(() => {
    const element = document.querySelector(selector);
    const seen = Boolean(element) && element.textContent.trim() === "1";
    if (seen && !bench.seen) note();
    bench.seen = seen;
  }).observe(document, {subtree: true, childList: true, characterData: true});
})();"""


class Variant:
    """The runtime every page loads, and the cell they all run."""

    def __init__(self, label, pyodide_dir, packages, code):
        self.label, self.pyodide_dir, self.packages, self.code = label, pyodide_dir, packages, code


def choose_variant():
    """The official release with NumPy where its wheel can be had; else 314's core with a print(1) cell."""
    try:
        official = runtimes.official(ROOT, Path(os.environ.get("COURSE_CACHE", ROOT / ".cache")))
    except runtimes.RuntimeUnavailable as error:
        core = ROOT / "node_modules" / "pyodide"
        return Variant("Pyodide {} core from npm, without NumPy, cell `print(1)`; no NumPy run, because {}".format(
            npm_version(core), error), core, [], "print(1)")
    return Variant("Pyodide {} with its official NumPy wheel, cell `import numpy; print(1)`".format(official.version),
                   None, ["numpy"], "import numpy\nprint(1)")


def build_pages(temp, variant, extra_lessons=()):
    """Build the one-cell lesson (and copies of `extra_lessons`, lesson folders) and write the four peer pages next
    to it, on the same runtime/ folder."""
    lessons = Path(temp) / "lessons" / "01-startup"
    lessons.mkdir(parents=True)
    (lessons / "lesson.md").write_text(LESSON_SOURCE.format(code=variant.code))
    for folder in extra_lessons:
        shutil.copytree(folder, lessons.parent / Path(folder).name, ignore=shutil.ignore_patterns("__pycache__"))
    extra = ["--pyodide-dir", str(variant.pyodide_dir)] if variant.pyodide_dir else ["--runtime", "official"]
    site = build_site(lessons.parent, Path(temp) / "_site", *extra)
    shutil.copytree(PYSCRIPT / "dist", site / "pyscript")
    write_peer_pages(site / "peers", variant)
    return site


def write_peer_pages(folder, variant):
    """The bare and PyScript pages, each running the variant's cell once on load (py-editor on Run)."""
    folder.mkdir()
    code, packages = js_string(variant.code), js_list(variant.packages)
    (folder / "bare-main.html").write_text(BARE_MAIN.format(code=code, packages=packages))
    (folder / "bare-worker.html").write_text(BARE_WORKER_PAGE)
    (folder / "bare-worker.mjs").write_text(BARE_WORKER.format(code=code, packages=packages))
    config = pyscript_config(variant)
    indented = "\n".join("    " + line for line in variant.code.splitlines())
    (folder / "pyscript.html").write_text(PYSCRIPT_PAGE.format(config=config, code=variant.code, indented=indented))
    (folder / "py-editor.html").write_text(PY_EDITOR_PAGE.format(config=config, code=variant.code))


def pyscript_config(variant):
    """PyScript's JSON config: the local pyodide.mjs, and NumPy from its lock file rather than through micropip."""
    config = '"interpreter": "../runtime/pyodide.mjs"'
    if variant.packages:
        config += ', "packages": {}, "packages_cache": "passthrough"'.format(js_list(variant.packages))
    return "{" + config + "}"


def js_string(text):
    """A JavaScript string literal for text."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def js_list(names):
    """A JavaScript array literal of strings."""
    return "[" + ", ".join(js_string(name) for name in names) + "]"


class Handler(serve.Handler):
    """The project's handler, noting when each answer was sent; PyScript's scripts cached like the runtime."""

    def do_GET(self):
        """Answer, then note (ms since the epoch, path, bytes sent)."""
        super().do_GET()
        self.server.sent.append((time.time() * 1000, self.path.split("?", 1)[0], self._length))

    def end_headers(self):
        """The project's caching headers, except for PyScript's files."""
        if self.path.startswith("/pyscript/"):
            # A CDN would let the browser keep these; "no-cache" (our site's pages) would be unfair to PyScript.
            self.send_header("Cache-Control", "public, max-age=86400")
            http.server.SimpleHTTPRequestHandler.end_headers(self)
        else:
            super().end_headers()


class BenchServer:
    """One server for every page on 127.0.0.1, with the time each answer was sent (ms since the epoch)."""

    def __init__(self, site, kind=None):
        kind = kind or Handler
        handler = lambda *args, **kwargs: kind(*args, site_dir=Path(site), **kwargs)  # noqa: E731
        self.httpd = serve.Server(("127.0.0.1", 0), handler)
        self.httpd.log, self.httpd.sent, self.httpd.status = [], [], None
        self.origin = "http://127.0.0.1:{}".format(self.httpd.server_address[1])
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path):
        """The address of a path of the site."""
        return "{}/{}".format(self.origin, path)

    def bytes_between(self, start, until_ms):
        """Bytes sent from entry `start` of the log on, by answers finished before until_ms."""
        return sum(size for when, _, size in self.httpd.sent[start:] if when <= until_ms)

    def close(self):
        """Stop serving."""
        self.httpd.shutdown()
        self.httpd.server_close()


def new_context(browser, guard, page):
    """A fresh context (empty caches) that notes the page's output and whose every request is watched."""
    context = guard.watch(browser.new_context())
    context.add_init_script(PROBE % ("null" if page.output is None else js_string(page.output)))
    return context


def open_page(context, server, page, **goto):
    """Open page in a new tab; returns (tab, first entry of the server's log that belongs to this visit)."""
    mark = len(server.httpd.sent)
    tab = context.new_page()
    tab.goto(server.url(page.path), **goto)
    return tab, mark


def wait_output(tab, count):
    """Wait until the page has shown its output `count` times; the in-page time of that output."""
    tab.wait_for_function("(n) => window.__bench.outputs.length >= n", arg=count, timeout=TIMEOUT_MS)
    return tab.evaluate("(n) => window.__bench.outputs[n - 1]", count)


def click_to_output(tab, page):
    """Click Run and return ms from the click event to the output."""
    clicks, outputs = tab.evaluate("() => { window.__bench.reset(); return [window.__bench.clicks.length, "
                                   "window.__bench.outputs.length]; }")
    tab.locator(page.run).first.click(timeout=TIMEOUT_MS)
    shown = wait_output(tab, outputs + 1)
    return shown - tab.evaluate("(n) => window.__bench.clicks[n]", clicks)


def first_output(context, server, page):
    """Load the page (clicking Run as soon as it can be clicked, where it does not run on load).

    Returns (ms from the navigation start to the first output, bytes the server sent before it, our marks).
    """
    tab, mark = open_page(context, server, page, wait_until="commit")
    if not page.autorun:
        tab.locator(page.run).first.click(timeout=TIMEOUT_MS)
    shown = wait_output(tab, 1)
    origin = tab.evaluate("() => performance.timeOrigin")
    sent = server.bytes_between(mark, origin + shown)
    marks = tab.evaluate(MARKS)
    tab.close()
    return shown, sent, marks


def after_wait(context, server, page, hover):
    """Load, wait 3 s (idle, or hovering Run), click Run; returns (click -> output, second click -> output)."""
    tab, _ = open_page(context, server, page)
    if hover:
        tab.locator(page.run).first.hover(timeout=TIMEOUT_MS)
    tab.wait_for_timeout(IDLE_MS)
    marks = tab.evaluate(MARKS)
    if page.autorun:
        wait_output(tab, 1)  # a page that is still starting would drop the click: let it finish first
    first = click_to_output(tab, page)
    again = click_to_output(tab, page)
    tab.close()
    return first, again, marks


def measure(browser, guard, server, page, into):
    """One repeat of every figure for one page, each visit in the context its cache state asks for."""
    context = new_context(browser, guard, page)
    shown, sent, marks = first_output(context, server, page)
    into["load_cold"].append(shown)
    into["bytes_cold"].append(sent)
    into["cold_marks"].append(marks)
    shown, sent, _ = first_output(context, server, page)
    into["load_warm"].append(shown)
    into["bytes_warm"].append(sent)
    first, again, marks = after_wait(context, server, page, hover=False)
    into["idle_warm"].append(first)
    into["rerun"].append(again)
    into["marks"].append(marks)
    into["hover_warm"].append(after_wait(context, server, page, hover=True)[0])
    context.close()
    context = new_context(browser, guard, page)
    into["idle_cold"].append(after_wait(context, server, page, hover=False)[0])
    context.close()


FIGURES = [
    ("load_cold", "page load -> first output, cold cache", "ms"),
    ("load_warm", "page load -> first output, warm cache", "ms"),
    ("bytes_cold", "bytes sent before the first output, cold", "KB"),
    ("bytes_warm", "bytes sent before the first output, warm", "KB"),
    ("idle_cold", "click -> output after 3 s idle, cold cache", "ms"),
    ("idle_warm", "click -> output after 3 s idle, warm cache", "ms"),
    ("hover_warm", "click -> output after 3 s hover, warm cache", "ms"),
    ("rerun", "warm re-run: click -> output", "ms"),
]


def table(results, repeats):
    """The table of medians, each peer's figure followed by its ratio to ours."""
    names = [page.name for page in PAGES]
    lines = ["{:44s}".format("median of {}".format(repeats)) + "".join("{:>20s}".format(name) for name in names)]
    for key, label, unit in FIGURES:
        medians = [statistics.median(results[name][key]) for name in names]
        cells = []
        for index, value in enumerate(medians):
            shown = "{:.1f} KB".format(value / 1024) if unit == "KB" else "{:.0f} ms".format(value)
            ratio = "" if index == 0 else " (x{})".format(ratio_text(value, medians[0]))
            cells.append("{:>20s}".format(shown + ratio))
        lines.append("{:44s}".format(label) + "".join(cells))
    return "\n".join(lines)


def ratio_text(value, ours):
    """value / ours, readable when ours is zero."""
    if ours == 0:
        return "inf" if value else "1.00"
    return "{:.2f}".format(value / ours)


def goals(results):
    """Issue 24's goals on this run: ours against the fastest peer cold, and ours warm."""
    ours = {key: statistics.median(results["ours"][key]) for key in ("load_cold", "idle_warm", "bytes_warm")}
    peer, fastest = min(((name, statistics.median(figures["load_cold"])) for name, figures in results.items()
                         if name != "ours"), key=lambda pair: pair[1])
    # Ours starts on the click, the peers on page load: the part of our first visit that follows the click.
    visits = [(shown, marks["course-load-began"]) for shown, marks in zip(results["ours"]["load_cold"],
                                                                         results["ours"]["cold_marks"])
              if "course-load-began" in marks]
    clicked = statistics.median(began for _, began in visits) if visits else float("nan")
    after_click = statistics.median(shown - began for shown, began in visits) if visits else float("nan")
    return "\n".join([
        "goals: page load -> first output, cold: ours / fastest peer ({}) = {:.2f} (goal <= 1.0)".format(
            peer, ours["load_cold"] / fastest),
        "       the same with ours counted from its click ({:.0f} ms after navigation): {:.2f}".format(
            clicked, after_click / fastest),
        "       click -> output after 3 s idle, warm: {:.0f} ms (goal <= 50)".format(ours["idle_warm"]),
        "       bytes sent before the first output, warm: {:.1f} KB (goal <= 5)".format(ours["bytes_warm"] / 1024)])


def start_steps(title, names, marks):
    """When each step of one of our starts had ended (its performance marks, ms after the navigation began): the
    median over the visits that reached it, and how many did."""
    lines = [title]
    for name in names:
        times = [visit[name] for visit in marks if name in visit]
        lines.append("  {:<24} {:>8}   {}/{}".format(name, "{:.0f}".format(statistics.median(times)) if times else "-",
                                                      len(times), len(marks)))
    return "\n".join(lines)


def npm_version(folder):
    """The version in an npm package's package.json."""
    return json.loads((folder / "package.json").read_text())["version"]


def main(argv=None):
    """Build, serve, measure, check that nothing left 127.0.0.1, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=REPEATS, help="runs per figure (default: %(default)s)")
    repeats = parser.parse_args(argv).repeats
    variant = choose_variant()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as temp:
        site = build_pages(temp, variant)
        server = BenchServer(site)
        guard = Guard(server.origin)
        results = {page.name: {key: [] for key in [*(key for key, _, _ in FIGURES), "marks", "cold_marks"]}
                   for page in PAGES}
        with start_playwright() as playwright:
            browser = launch(playwright)
            version = browser.version
            for _ in range(repeats):
                for page in PAGES:  # interleaved, so that a noisy minute hits every page alike
                    measure(browser, guard, server, page, results[page.name])
            browser.close()
        server.close()
    watched = guard.check()
    print("peers, one run, Chromium {}, one server on 127.0.0.1".format(version))
    print("runtime: {}".format(variant.label))
    print("PyScript {}; its print() goes to the console, read there; ratios are to ours".format(
        npm_version(PYSCRIPT)))
    print("load average (1 min): {:.2f} before, {:.2f} after".format(load, os.getloadavg()[0]))
    print(table(results, repeats))
    print(goals(results))
    print(start_steps("our warm idle start, each step's end (ms after navigation; median, visits that reached it "
                      "in {} s):".format(IDLE_MS // 1000), STEPS, results["ours"]["marks"]))
    print(start_steps("our first visit, clicked at once, each step's end (ms after navigation; median, visits):",
                      COLD_STEPS, results["ours"]["cold_marks"]))
    print(watched)


if __name__ == "__main__":
    sys.exit(main())
