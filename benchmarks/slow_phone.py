"""A slow phone: first output, a training cell of lesson 003 and Stop, at 375 px with the CPU slowed 4x.

    .venv/bin/python benchmarks/slow_phone.py [--repeats N] [--rate R]      (make benchmark runs it)

Chromium's CPU throttle (Emulation.setCPUThrottlingRate) is set per DevTools target, and Chromium accepts it on
pages only: sent to the dedicated worker where the course runs Python (through benchmarks/targets.py) it answers
"Operation is only supported for pages, not workers", and a page's throttle leaves its worker at full speed.
So the script measures three settings, each visit in a fresh context with a 375 x 812 viewport:
    none     no throttle
    devtools the page's main thread throttled by DevTools (the worker refuses it; its answer is printed)
    process  the whole renderer process (page, its workers, its service worker) stopped and continued by
             signals, running 1/R of every PERIOD seconds, as a CPU R times slower would
and checks each with a pure-Python loop in the worker and a JavaScript loop in the page. The figures, per setting:
    first output   page load -> output of cell 1 of lesson 000, first visit (Run clicked as soon as it can be)
    training       lesson 003's cell `sense-train`: click Run -> done (its earlier cells run first), then a re-run
    stop           click Stop on `while True: pass` -> the cell has ended (interrupted, the namespace kept)
Times are taken in the page (performance.now()), so the driver adds nothing.
"""

import argparse
import os
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests"), str(Path(__file__).resolve().parent)]

import startup  # noqa: E402
from targets import Targets  # noqa: E402

from support import ROOT, Server, build_site, launch  # noqa: E402

REPEATS = 3
RATE = 4
PERIOD = 0.020
VIEWPORT = {"width": 375, "height": 812}
LESSON_000 = startup.LESSON
LESSON_003 = "003-odna-holova/index.html"
TRAINING = ".cell:has(#cell-sense-train)"  # the cell whose name carries the id
SETTINGS = ["none", "devtools", "process"]
LOOP = "import time\nstart = time.monotonic()\ntotal = 0\nfor i in range(1000000):\n    total += i\n" \
       "print('loop={:.3f}'.format(time.monotonic() - start))"
JS_LOOP = """() => { const t0 = performance.now(); let total = 0;
  for (let i = 0; i < 3e8; i++) total += i % 7; return [performance.now() - t0, total]; }"""
# Notes when the first cell to finish finished, from before any script of the page runs.
FINISHED = "document.addEventListener('run-finished', () => { window.__finished = performance.now(); }, {once: true});"
# The code of cell 1 as if the learner had typed it, so that running it needs no earlier cell.
SEED_FIRST_CELL = """(code) => {
  const data = JSON.parse(document.getElementById("page-data").textContent);
  const cell = data.cells[0];
  localStorage.setItem("course:v1:" + encodeURIComponent(data.lesson) + ":cell:" + encodeURIComponent(cell.key),
                       JSON.stringify({code, original: cell.code}));
}"""
TIME_RUN = """(selector) => new Promise((resolve) => {
  const t0 = performance.now();
  document.querySelector(selector).addEventListener("run-finished", () => resolve(performance.now() - t0), {once: true});
  document.querySelector(selector + " [data-action=run]").click();
})"""


def duty(rate, period=PERIOD):
    """(seconds running, seconds stopped) of each period, for a CPU `rate` times slower."""
    return period / rate, period - period / rate


def parent(pid):
    """The parent of process pid (None once it has gone)."""
    try:
        with open("/proc/{}/stat".format(pid)) as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def renderers(browser_pid):
    """The renderer processes descending from the browser process we started."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/{}/cmdline".format(entry), "rb") as cmdline:
                if b"--type=renderer" not in cmdline.read():
                    continue
        except OSError:
            continue
        pid = int(entry)
        ancestor = parent(pid)
        while ancestor and ancestor not in (1, browser_pid):
            ancestor = parent(ancestor)
        if ancestor == browser_pid:
            found.append(pid)
    return found


class ProcessThrottle:
    """Runs the browser's renderers 1/rate of the time: SIGSTOP and SIGCONT in turn, in a thread."""

    def __init__(self, browser_pid, rate):
        self.browser_pid, self.rate = browser_pid, rate
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.cycle, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        self.thread.join()

    def cycle(self):
        """Stop and continue the renderers until told to end; they are always left running."""
        running, stopped = duty(self.rate)
        pids, looked = [], 0.0
        try:
            while not self.stopping.is_set():
                if time.monotonic() - looked > 0.5:  # a new context starts a new renderer
                    pids, looked = renderers(self.browser_pid), time.monotonic()
                self.signal(pids, signal.SIGCONT)
                time.sleep(running)
                self.signal(pids, signal.SIGSTOP)
                time.sleep(stopped)
        finally:
            self.signal(renderers(self.browser_pid), signal.SIGCONT)

    @staticmethod
    def signal(pids, number):
        """Send a signal to each process that still exists."""
        for pid in pids:
            try:
                os.kill(pid, number)
            except ProcessLookupError:
                pass


def browser_pid(browser):
    """The process id of the browser Playwright started (DevTools' SystemInfo says)."""
    session = browser.new_browser_cdp_session()
    processes = session.send("SystemInfo.getProcessInfo")["processInfo"]
    session.detach()
    return next(process["id"] for process in processes if process["type"] == "browser")


class Visit:
    """A fresh context at 375 px, its page and the page's workers, throttled as `setting` says."""

    def __init__(self, browser, setting, rate):
        self.context = browser.new_context(viewport=VIEWPORT)
        self.context.add_init_script(FINISHED)
        self.page = self.context.new_page()
        self.targets = Targets(self.context, self.page)
        if setting == "devtools":
            self.targets.cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})

    def refused(self, rate):
        """What the page's Python worker answers when asked for the DevTools throttle (None: it accepted)."""
        worker = self.targets.worker()
        answer = self.targets.answers
        ident = self.targets.post(worker, "Emulation.setCPUThrottlingRate", {"rate": rate})
        while ident not in answer:
            self.page.wait_for_timeout(10)
        error = answer.pop(ident).get("error")
        return error and error["message"]

    def close(self):
        self.context.close()


def first_output(visit, server):
    """ms from navigation to the end of cell 1 on a first visit, Run clicked as soon as it can be."""
    page = visit.page
    page.goto(server.url(LESSON_000), wait_until="commit")
    page.locator("#cell-1 [data-action=run]").click(timeout=300_000)
    page.wait_for_function("() => window.__finished !== undefined", timeout=600_000)
    return page.evaluate("() => window.__finished")


def with_first_cell(page, server, code):
    """Reload lesson 000 with cell 1 holding `code`, and wait until Python is up (it starts on idle, warm)."""
    page.evaluate(SEED_FIRST_CELL, code)
    page.goto(server.url(LESSON_000))
    page.wait_for_function("() => document.body.dataset.runtime === 'ready'", timeout=600_000)


def loops(visit, server):
    """(seconds of the pure-Python loop in the worker, ms of the JavaScript loop in the page)."""
    with_first_cell(visit.page, server, LOOP)
    visit.page.evaluate(TIME_RUN, "#cell-1")
    python = float(re.search(r"loop=([\d.]+)", visit.page.locator("#cell-1").inner_text()).group(1))
    return python, visit.page.evaluate(JS_LOOP)[0]


def stop(visit, server):
    """ms from Stop on `while True: pass` to the cell's end, and how Stop ended it."""
    with_first_cell(visit.page, server, "while True: pass")
    ended, _, how = visit.page.evaluate(startup.STOP, "#cell-1")
    return ended, how


def training(visit, server):
    """ms of lesson 003's training cell: its first Run (earlier cells first), then a re-run."""
    visit.page.goto(server.url(LESSON_003))
    first = visit.page.evaluate(TIME_RUN, TRAINING)
    state = visit.page.locator(TRAINING).get_attribute("data-state")
    assert state == "done", "lesson 003's training cell ended {}".format(state)
    return first, visit.page.evaluate(TIME_RUN, TRAINING)


def measure(browser, server, setting, rate, pid):
    """One repeat of every figure in one setting; {figure: value}."""
    throttle = ProcessThrottle(pid, rate) if setting == "process" else None
    if throttle:
        throttle.__enter__()
    try:
        visit = Visit(browser, setting, rate)
        found = {"first": first_output(visit, server)}
        found["python loop"], found["js loop"] = loops(visit, server)
        if setting == "devtools":
            found["refused"] = visit.refused(rate)
        found["stop"], found["stop by"] = stop(visit, server)
        found["training first"], found["training"] = training(visit, server)
        visit.close()
    finally:
        if throttle:
            throttle.__exit__()
    return found


ROWS = [("first", "page load -> output of cell 1, first visit (ms)", "{:.0f}"),
        ("training first", "lesson 003 sense-train, first Run, earlier cells first (ms)", "{:.0f}"),
        ("training", "lesson 003 sense-train, re-run (ms)", "{:.0f}"),
        ("stop", "Stop on `while True: pass` -> ended (ms)", "{:.0f}"),
        ("python loop", "pure-Python loop, 1e6 additions, in the worker (s)", "{:.3f}"),
        ("js loop", "JavaScript loop, 3e8 steps, in the page (ms)", "{:.0f}")]


def table(results):
    """Medians per setting, with the ratio to no throttle."""
    lines = ["{:62s}".format("median") + "".join("{:>22s}".format(setting) for setting in SETTINGS)]
    for key, label, form in ROWS:
        medians = [statistics.median(sample[key] for sample in results[setting]) for setting in SETTINGS]
        cells = [form.format(value) + ("" if index == 0 else " (x{:.2f})".format(value / medians[0]))
                 for index, value in enumerate(medians)]
        lines.append("{:62s}".format(label) + "".join("{:>22s}".format(cell) for cell in cells))
    return lines


def main(argv=None):
    """Build the course, measure every setting in turn `repeats` times, print the table."""
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=REPEATS)
    parser.add_argument("--rate", type=float, default=RATE)
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as temp:
        site = build_site(ROOT / "lessons", Path(temp) / "_site")
        manifest = startup.add_bare_page(site)
        server = Server(site)
        results = {setting: [] for setting in SETTINGS}
        with sync_playwright() as playwright:
            browser = launch(playwright)
            pid = browser_pid(browser)
            for _ in range(args.repeats):
                for setting in SETTINGS:
                    results[setting].append(measure(browser, server, setting, args.rate, pid))
            version = browser.version
            browser.close()
        server.close()
    print("slow phone, one run, Chromium {}, {}x{} px, CPU {}x slower; runtime Pyodide {} ({} worker)".format(
        version, VIEWPORT["width"], VIEWPORT["height"], args.rate, manifest["version"], manifest["worker"]))
    print("load average (1 min): {:.2f} before, {:.2f} after".format(load, os.getloadavg()[0]))
    print("\n".join(table(results)))
    print("pure-Python loop (s), each repeat: " + "; ".join("{} {}".format(setting, " ".join(
        "{:.3f}".format(sample["python loop"]) for sample in results[setting])) for setting in SETTINGS))
    refusals = {sample["refused"] for sample in results["devtools"]}
    print("the worker, asked for the DevTools throttle, answered: {}".format("; ".join(map(str, sorted(refusals)))))
    print("Stop ended the loop by: " + ", ".join("{} {}".format(setting, "/".join(sorted(
        {sample["stop by"] for sample in results[setting]}))) for setting in SETTINGS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
