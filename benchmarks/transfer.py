"""Transfer benchmark: bytes sent over the network for a first and a second lesson, and the offline course size.

    .venv/bin/python benchmarks/transfer.py

Builds the playground fixture (two lessons) and the course into temporary folders and counts, with the
project's own server, the bytes it sends (gzip where the browser accepts it) while headless Chromium
opens a lesson and runs its first cell, then opens the second lesson and runs its first cell.
"""

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support import ROOT, Server, build_site, launch  # noqa: E402


def sent(server, since=0):
    log = server.httpd.log[since:]
    runtime = sum(size for path, size in log if "/runtime/" in path)
    return runtime, sum(size for _, size in log) - runtime, len(server.httpd.log)


def main():
    from playwright.sync_api import expect, sync_playwright

    with tempfile.TemporaryDirectory() as temp:
        site = build_site(ROOT / "tests" / "fixtures" / "playground" / "lessons", Path(temp) / "playground")
        course = build_site(ROOT / "lessons", Path(temp) / "course")
        offline = json.loads((course / "offline.json").read_text())
        server = Server(site)
        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = browser.new_page()
            rows = []
            mark = 0
            for lesson in ("01-playground", "02-druhyi"):
                page.goto(server.url(lesson + "/index.html"))
                page.wait_for_load_state("networkidle")
                runtime, other, _ = sent(server, mark)
                page.locator("#cell-1 [data-action=run]").click()
                expect(page.locator("#cell-1")).to_have_attribute("data-state", "done", timeout=120_000)
                runtime_run, other_run, mark = sent(server, mark)
                rows.append((lesson, other, runtime_run - runtime, other_run - other))
            browser.close()
        server.close()
    print("bytes sent by the server (gzip where accepted), playground site, Chromium with a service worker:")
    for lesson, page_bytes, runtime_bytes, run_bytes in rows:
        print("  {:14s} page load {:8.1f} KB | first Run: runtime {:8.1f} KB, other {:6.1f} KB".format(
            lesson, page_bytes / 1024, runtime_bytes / 1024, run_bytes / 1024))
    total = sum(file["size"] for file in offline["files"])
    runtime = sum(file["size"] for file in offline["files"] if file["cache"] == offline["runtimeCache"])
    print("whole course stored offline: {:.1f} MB in {} files (runtime {:.1f} MB, everything else {:.1f} KB)".format(
        total / 1e6, len(offline["files"]), runtime / 1e6, (total - runtime) / 1024))


if __name__ == "__main__":
    main()
