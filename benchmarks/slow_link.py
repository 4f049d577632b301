"""A slow link: page load -> text readable and -> first output, ours and the bare page, through a throttled server.

    .venv/bin/python benchmarks/slow_link.py [--repeats N]      (make benchmark runs it)

Chromium's network emulation shapes the page's own requests but not those of its workers (the course's Python
worker fetches the runtime, through the service worker), so the throttle is in the server: the project's handler
(through benchmarks/peers.py's, which notes when each answer ended) with every answer held back by the link's
latency before its first byte, and every byte of every answer sent through one shared link of the given
bandwidth, in chunks of CHUNK bytes, each after the bytes before it (of any answer) have crossed. Two links:
10 Mbit/s with 40 ms of latency, and 2 Mbit/s with 40 ms.

On each link, in fresh browser contexts (cold caches), interleaved: our one-cell lesson of peers.py (Run clicked as
soon as it can be clicked) and the bare Pyodide pages of peers.py, on the same runtime files; page load -> first
contentful paint and -> first output, and the bytes the server had sent by then; and the first contentful paint
of lesson 000, the course's longest page. The same run measures the bare worker page's cold start on the
unthrottled server, so as to print the goal: first output <= 1.1 x (bytes / bandwidth + that bare start).
"""

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent))  # after tests/: benchmarks/engines.py would shadow tests/engines.py

import peers  # noqa: E402  (puts tests/ and py/ on the path)
from loopback import Guard, launch, start_playwright  # noqa: E402

from coursebuild import serve  # noqa: E402
from support import ROOT  # noqa: E402

REPEATS = 3
CHUNK = 4096
LINKS = [("10 Mbit/s, 40 ms", 10e6, 0.040), ("2 Mbit/s, 40 ms", 2e6, 0.040)]
LESSON_000 = "000-varias-cabezas/index.html"
PAGES = [page for page in peers.PAGES if page.name in ("ours", "bare main", "bare worker")]  # the bare worker last
FCP = """() => new Promise((resolve) => {
  const found = () => performance.getEntriesByName("first-contentful-paint")[0];
  if (found()) return resolve(found().startTime);
  new PerformanceObserver(() => found() && resolve(found().startTime)).observe({type: "paint", buffered: true});
})"""


class Link:
    """One link shared by every answer: `bits_per_second` of bandwidth, `latency` seconds before each answer."""

    def __init__(self, bits_per_second, latency):
        self.rate = bits_per_second / 8  # bytes per second
        self.latency = latency
        self.free_at = 0.0  # when the bytes already handed to the link will all have crossed it
        self.lock = threading.Lock()

    def reserve(self, size, now):
        """When `size` bytes handed over at `now` will have crossed, after every byte handed over before them."""
        with self.lock:
            self.free_at = max(now, self.free_at) + size / self.rate
            return self.free_at

    def send(self, write, data, clock=time.monotonic, sleep=time.sleep):
        """write(data) chunk by chunk, each chunk once the link has carried it."""
        view = memoryview(data)
        for start in range(0, len(view), CHUNK):
            chunk = view[start:start + CHUNK]
            sleep(max(0.0, self.reserve(len(chunk), clock()) - clock()))
            write(chunk)


class SlowFile:
    """A connection's output that sends through the server's link."""

    def __init__(self, raw, link):
        self.raw, self.link = raw, link

    def write(self, data):
        """Send data through the link; the count the socket writer returns."""
        self.link.send(self.raw.write, data)
        return len(data)

    def __getattr__(self, name):
        """flush, close and the rest as the connection's own."""
        return getattr(self.raw, name)


class SlowHandler(peers.Handler):
    """peers.py's handler (the project's own, timed), behind the server's link when it has one."""

    def setup(self):
        """Send the connection's output through the link."""
        super().setup()
        if self.server.link is not None:
            self.wfile = SlowFile(self.wfile, self.server.link)

    def do_GET(self):
        """Wait the link's latency, then answer."""
        if self.server.link is not None:
            time.sleep(self.server.link.latency)
        super().do_GET()


def prime_gzip(site):
    """Compress every file the server would gzip once, so that no page's first request pays the compression."""
    for path in Path(site).rglob("*"):
        if path.is_file() and path.suffix in serve.COMPRESSED:
            serve.Handler._compressed(path)


def cold_visit(browser, guard, server, page):
    """A first visit of `page`: (ms to first contentful paint, ms to first output, bytes sent before the output)."""
    context = peers.new_context(browser, guard, page)
    tab, mark = peers.open_page(context, server, page, wait_until="commit")
    if not page.autorun:
        tab.locator(page.run).first.click(timeout=peers.TIMEOUT_MS)
    shown = peers.wait_output(tab, 1)
    sent = server.bytes_between(mark, tab.evaluate("() => performance.timeOrigin") + shown)
    paint = tab.evaluate(FCP)
    context.close()
    return paint, shown, sent


def lesson_paint(browser, guard, server):
    """ms from the navigation start to the first contentful paint of lesson 000, on a first visit."""
    context = guard.watch(browser.new_context())
    tab = context.new_page()
    tab.goto(server.url(LESSON_000), wait_until="commit")
    paint = tab.evaluate(FCP)
    context.close()
    return paint


def ideal_ms(sent, bits_per_second, bare_ms):
    """The goal's yardstick: the bytes' time on the link plus a bare start's (ms)."""
    return sent * 8 / bits_per_second * 1000 + bare_ms


def measure(browser, guard, server, repeats):
    """Every figure on every link, and the bare worker page's unthrottled cold start; {key: [samples]}."""
    results = {}
    for _ in range(repeats):
        server.httpd.link = None
        results.setdefault("bare start", []).append(
            cold_visit(browser, guard, server, PAGES[2])[1])
        for label, bits, latency in LINKS:
            server.httpd.link = Link(bits, latency)
            results.setdefault((label, "lesson 000"), []).append(lesson_paint(browser, guard, server))
            for page in PAGES:
                results.setdefault((label, page.name), []).append(cold_visit(browser, guard, server, page))
    server.httpd.link = None
    return results


def report(results, repeats):
    """The lines docs/benchmarks.md records."""
    bare = statistics.median(results["bare start"])
    lines = ["bare worker page, unthrottled, cold: page load -> first output {:.0f} ms (median of {})".format(
        bare, repeats)]
    for label, bits, _ in LINKS:
        lines.append("{} (median of {}):".format(label, repeats))
        lines.append("  lesson 000: page load -> first contentful paint {:7.0f} ms   (goal at 2 Mbit/s: <= 1000)".format(
            statistics.median(results[(label, "lesson 000")])))
        for page in PAGES:
            samples = results[(label, page.name)]
            paint, shown, sent = (statistics.median(column) for column in zip(*samples))
            yardstick = ideal_ms(sent, bits, bare)
            lines.append("  {:11s} paint {:6.0f} ms | first output {:7.0f} ms | {:7.1f} KB sent; bytes / bandwidth "
                         "{:6.0f} ms + bare start {:5.0f} ms = {:6.0f} ms; ratio {:.2f} (goal <= 1.1)".format(
                             page.name, paint, shown, sent / 1024, sent * 8 / bits * 1000, bare, yardstick,
                             shown / yardstick))
    return lines


def main(argv=None):
    """Build, serve through the throttle, measure, check that nothing left 127.0.0.1, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=REPEATS, help="runs per figure (default: %(default)s)")
    repeats = parser.parse_args(argv).repeats
    variant = peers.choose_variant()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as temp:
        site = peers.build_pages(temp, variant, extra_lessons=[ROOT / "lessons" / "000-varias-cabezas"])
        prime_gzip(site)
        server = peers.BenchServer(site, SlowHandler)
        server.httpd.link = None
        guard = Guard(server.origin)
        with start_playwright() as playwright:
            browser = launch(playwright)
            version = browser.version
            results = measure(browser, guard, server, repeats)
            browser.close()
        server.close()
    watched = guard.check()
    print("slow link, one run, Chromium {}, the throttle in the server on 127.0.0.1 (chunks of {} bytes)".format(
        version, CHUNK))
    print("runtime: {}".format(variant.label))
    print("load average (1 min): {:.2f} before, {:.2f} after".format(load, os.getloadavg()[0]))
    print("\n".join(report(results, repeats)))
    print(watched)


if __name__ == "__main__":
    sys.exit(main())
