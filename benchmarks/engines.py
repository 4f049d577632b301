"""Per-engine benchmark: Run → first output with the runtime cached, Stop latency, and Python usable again.

    .venv/bin/python benchmarks/engines.py [--repeats N] [--engines chromium,firefox,webkit,webkit+sab]

Drives the playground lesson in each engine through tests/engines.py (the same driver layer as the
cross-engine suite). Each engine gets a fresh profile; its first visit installs the service worker, and
every measured visit but one is a later one, served (and cross-origin isolated) by it. Times are taken inside
the page with performance.now(), so the driver adds nothing:
    run          click Run on cell 1 (Python not started, its files cached) → the cell's output is in the page
    stop         click Stop on `while True` → the cell is no longer running
    usable       click Stop → a following `print(x)` cell has printed (Python back, the namespace kept or replayed)
    stop by      how Stop ended the loop: "buffer" (the shared buffer), "flag" (the service
                 worker's stop flag) or "restart" (the restart: the worker ended and the cells replayed)
    first visit  stop and usable on the first visit (one sample: not isolated, so the stop flag where a service
                 worker answers)
Prints one table; docs/benchmarks.md records it.
"""

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from engines import ENGINES, available, launch  # noqa: E402

from support import ROOT, Server, build_site  # noqa: E402

PAGE = "01-playground/index.html"

# Resolves when `selector`'s state matches `pattern`; the time since t0.
WAIT = """
const until = (selector, pattern) => new Promise((resolve) => {
  const poll = () => (new RegExp(pattern).test(document.querySelector(selector).dataset.state || "")
    ? resolve(performance.now()) : setTimeout(poll, 2));
  poll();
});
"""
RUN_FIRST = WAIT + """
const t0 = performance.now();
document.querySelector("#cell-1 [data-action=run]").click();
return until("#cell-1", "^done$").then((t) => t - t0);
"""
STOP = WAIT + """
const [loop, after] = arguments;
document.querySelector(loop + " [data-action=run]").click();
return until(loop, "^running$").then(() => new Promise((r) => setTimeout(r, 300))).then(() => {
  const t0 = performance.now();
  document.querySelector(".runtime-bar [data-action=stop]").click();
  return until(loop, "^(?!running$|queued$)").then((ended) => {
    document.querySelector(after + " [data-action=run]").click();
    return until(after, "^(done|failed)$").then((usable) => [ended - t0, usable - t0,
      !document.querySelector(loop + " .out-stopped") ? "restart"
        : self.crossOriginIsolated && typeof SharedArrayBuffer === "function" ? "buffer" : "flag"]);
  });
});
"""


def measure(driver, server, repeats):
    """Median run, stop and usable times (ms) and how Stop ended the code, over `repeats` later visits; and
    [stop, usable, how] on the first visit."""
    driver.open(server.url(PAGE))
    driver.wait("return !!navigator.serviceWorker.controller", 60, "the service worker never took the page")
    driver.type_into_cell(4, "while True: pass")
    driver.type_into_cell(5, "print(x)")
    driver.js("window.dispatchEvent(new Event('pagehide'))")  # keep both edits for the next visits
    driver.js(RUN_FIRST)  # starts Python (its files from the network: not measured)
    first = driver.js(STOP, "#cell-4", "#cell-5")
    runs, stops, usable, how = [], [], [], set()
    for _ in range(repeats):
        driver.reload()
        runs.append(driver.js(RUN_FIRST))
        ended, back, kind = driver.js(STOP, "#cell-4", "#cell-5")
        stops.append(ended)
        usable.append(back)
        how.add(kind)
    return (statistics.median(runs), statistics.median(stops), statistics.median(usable), "/".join(sorted(how)),
            first)


def main(argv=None):
    """Measure every engine that can run here and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--engines", default=",".join(list(ENGINES) + ["webkit+sab"]))
    args = parser.parse_args(argv)
    import tempfile
    with tempfile.TemporaryDirectory() as temp:
        site = build_site(ROOT / "tests" / "fixtures" / "playground" / "lessons", Path(temp) / "_site")
        server = Server(site)
        print("{:<11} {:>9} {:>10} {:>12}  {:<8} {}".format("engine", "run (ms)", "stop (ms)", "usable (ms)", "stop by",
                                                          "first visit: stop / usable (ms), by"))
        for profile in args.engines.split(","):
            engine = profile.split("+")[0]
            if available(engine):
                print("{:<11} not installed: {}".format(profile, available(engine)))
                continue
            playwright = None
            if engine == "chromium":
                from playwright.sync_api import sync_playwright
                playwright = sync_playwright().start()
            driver = launch(engine, playwright.chromium if playwright else None,
                            **({"shared_array_buffer": True} if profile == "webkit+sab" else {}))
            try:
                run, stop, usable, how, first = measure(driver, server, args.repeats)
            except Exception as error:  # an engine that cannot finish is a result too: say what happened
                print("{:<11} did not finish: {}".format(profile, str(error).strip().splitlines()[0]), flush=True)
                continue
            finally:
                driver.close()
                if playwright is not None:
                    playwright.stop()
            print("{:<11} {:>9.0f} {:>10.0f} {:>12.0f}  {:<8} {:.0f} / {:.0f}, {}".format(
                profile, run, stop, usable, how, *first), flush=True)
        server.close()
    print("median of {} visits each, page served by the service worker; one run, one machine".format(args.repeats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
