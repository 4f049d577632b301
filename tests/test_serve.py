"""`build.py serve`: builds, serves with the types Pyodide needs, compresses, and rebuilds on change."""

import gzip
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

from coursebuild import serve
from coursebuild.serve import STATUS_PATH, BuildStatus, make_server
from support import ROOT

PLAYGROUND = ROOT / "tests" / "fixtures" / "playground" / "lessons"
BROKEN = b"\n\xff\xfe not UTF-8\n"
# How long a test waits for the dev server to build or rebuild: generous, since a build on a busy machine takes
# many times its usual second or two. The waits end as soon as what they wait for holds; this is no measure of speed.
BUILD_TIMEOUT = 300


def fetch(url, gzip_ok=False):
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gzip_ok else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
        if response.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        return response.headers, body


class DevServer:
    """`build.py serve --port 0` on `lessons`, its output read line by line in a thread (so the pipe never fills).

    Its waits wake at each line the server prints (a build ends with one: "Built ...", or its errors) and look again
    at least every half second, until what they wait for holds or BUILD_TIMEOUT passes; one fails at once, with the
    server's output, if the server has ended."""

    def __init__(self, lessons, out):
        self.process = subprocess.Popen([sys.executable, str(ROOT / "build.py"), "--lessons", str(lessons), "--out",
                                         str(out), "serve", "--port", "0"], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        self.lines, self.printed = [], threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        try:
            self.wait_until(lambda: any(line.startswith("Serving ") for line in self.lines), "the server never served")
        except BaseException:
            self.close()
            raise
        self.url = next(line for line in self.lines if line.startswith("Serving ")).split(" at ")[1].split(" ")[0]

    def _read(self):
        for line in self.process.stdout:
            with self.printed:
                self.lines.append(line)
                self.printed.notify_all()

    def wait_until(self, holds, what):
        """Wait until holds() is true; fail with `what` and the server's output if it ends or BUILD_TIMEOUT passes.
        A request that fails meanwhile counts as not yet (the new site replaces the old one between two renames)."""
        deadline, error = time.monotonic() + BUILD_TIMEOUT, None
        while True:
            try:
                if holds():
                    return
            except urllib.error.URLError as failed:
                error = failed
            with self.printed:
                output = "".join(self.lines[-40:]) + ("last request: {}\n".format(error) if error else "")
                assert self.process.poll() is None, "{}: the server ended\n{}".format(what, output)
                assert time.monotonic() < deadline, "{} in {} s\n{}".format(what, BUILD_TIMEOUT, output)
                self.printed.wait(0.5)

    def page(self, path):
        return fetch(self.url + path)[1].decode()

    def state(self):
        return json.loads(self.page(STATUS_PATH.lstrip("/")))["state"]

    def close(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def wait_for_page(server, text):
    """Wait until the dev server's second lesson contains text."""
    server.wait_until(lambda: text in server.page("02-druhyi/index.html"),
                      "the page was not rebuilt after the lesson changed")


def test_serve_builds_serves_and_rebuilds_when_a_lesson_changes_even_after_a_build_that_raised(tmp_path):
    lessons = tmp_path / "lessons"
    shutil.copytree(PLAYGROUND, lessons)
    server = DevServer(lessons, tmp_path / "_site")
    try:
        url = server.url
        assert url and url.startswith("http://127.0.0.1:")
        headers, body = fetch(url + "02-druhyi/index.html", gzip_ok=True)
        assert headers["Content-Encoding"] == "gzip" and "Комірка на другій сторінці." in body.decode()
        wasm = next(name for name in (tmp_path / "_site" / "runtime").iterdir() if name.suffix == ".wasm")
        assert fetch(url + "runtime/" + wasm.name)[0]["Content-Type"] == "application/wasm"
        assert fetch(url + "assets/worker-module.mjs")[0]["Content-Type"] == "text/javascript"
        lesson = lessons / "02-druhyi" / "lesson.md"
        lesson.write_text(lesson.read_text().replace("Комірка на другій сторінці.", "Змінений текст."))
        wait_for_page(server, "Змінений текст.")
        lesson.write_bytes(lesson.read_bytes() + BROKEN)  # a build that raised used to kill the watcher
        server.wait_until(lambda: server.state() == "failed", "the dev server never said the build failed")
        lesson.write_text(lesson.read_bytes()[:-len(BROKEN)].decode().replace(
            "Змінений текст.", "Виправлено й зібрано знову."))
        wait_for_page(server, "Виправлено й зібрано знову.")
        server.wait_until(lambda: server.state() == "ok", "the dev server never said the build went well")
    finally:
        server.close()


def test_the_dev_server_keeps_no_list_of_requests_that_grows_forever(tmp_path):
    (tmp_path / "index.html").write_text("<p>hi</p>")
    server = make_server(tmp_path, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        for _ in range(3):
            assert fetch("http://127.0.0.1:{}/index.html".format(server.server_address[1]))[1] == b"<p>hi</p>"
        assert server.log is None
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("gzip_ok", [True, False], ids=["gzip", "plain"])
def test_a_conditional_request_for_an_unchanged_file_gets_304_with_or_without_gzip(tmp_path, gzip_ok):
    (tmp_path / "page.js").write_text("console.log(1);\n" * 100)
    server = make_server(tmp_path, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = "http://127.0.0.1:{}/page.js?v=abc".format(server.server_address[1])
    try:
        headers, _ = fetch(url, gzip_ok=gzip_ok)
        assert (headers.get("Content-Encoding") == "gzip") == gzip_ok
        request = urllib.request.Request(url, headers=dict({"If-Modified-Since": headers["Last-Modified"]},
                                                           **({"Accept-Encoding": "gzip"} if gzip_ok else {})))
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(request, timeout=10)
        assert answer.value.code == 304 and answer.value.read() == b""
        stale = urllib.request.Request(url, headers={"If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT",
                                                     "Accept-Encoding": "gzip"})
        with urllib.request.urlopen(stale, timeout=10) as response:
            assert response.status == 200
    finally:
        server.shutdown()
        server.server_close()


def test_the_watcher_survives_a_build_that_crashes_and_rebuilds_on_the_next_save(tmp_path, monkeypatch):
    lesson = tmp_path / "lesson.md"
    lesson.write_text("first")
    looked, built, printed, rebuilt = threading.Event(), [], [], threading.Condition()
    real_snapshot = serve.snapshot

    def snapshot(folders):
        times = real_snapshot(folders)
        looked.set()
        return times

    def build():
        with rebuilt:
            built.append(lesson.read_text())
            rebuilt.notify_all()
        if len(built) == 1:
            raise UnicodeDecodeError("utf-8", b"\xe9", 0, 1, "invalid continuation byte")
        return []

    monkeypatch.setattr(serve, "snapshot", snapshot)
    status, stop = BuildStatus(), threading.Event()
    thread = threading.Thread(target=serve.watch, args=([tmp_path], build, status),
                              kwargs={"interval": 0.02, "stop": stop, "log": printed.append}, daemon=True)
    thread.start()
    try:
        for text, state in (("second", "failed"), ("third", "ok")):
            looked.clear()
            assert looked.wait(BUILD_TIMEOUT)  # the watcher has seen the folder as it is now
            lesson.write_text(text)
            deadline = time.monotonic() + BUILD_TIMEOUT
            with rebuilt:
                while built[-1:] != [text]:
                    assert thread.is_alive(), "the watch thread died"
                    assert time.monotonic() < deadline, "no rebuild after saving {!r}".format(text)
                    rebuilt.wait(0.5)
            assert json.loads(status.as_json())["state"] in (state, "building")
        assert printed and "UnicodeDecodeError" in printed[0] and "Traceback" not in printed[0]
    finally:
        stop.set()
        thread.join(5)


def serve_in_thread(site, status=None):
    """The project's server on a free port, in a thread; returns (server, origin)."""
    server = make_server(site, 0, status=status)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:{}".format(server.server_address[1])


def test_pages_from_the_dev_server_say_when_a_build_runs_fails_or_replaced_them(page, playground_site):
    status = BuildStatus()
    status.finished([])
    server, origin = serve_in_thread(playground_site, status)
    try:
        page.goto(origin + "/01-playground/index.html")
        expect(page.locator(".runtime-bar")).to_be_visible()  # the page's script runs
        banner = page.locator(".dev-banner")
        expect(banner).to_be_hidden()
        status.building()
        expect(banner).to_have_text("Rebuilding the course…")
        error = "lessons/01-playground/lesson.md:12: unknown directive 'quizz' (known: answer, code-cell, quiz)"
        status.finished([error])
        expect(banner).to_contain_text("The last build failed; this page is from the build before it.")
        expect(banner).to_contain_text(error)
        status.finished([])
        expect(banner).to_have_text("The course was rebuilt after this page was opened: reload to see the changes.")
        page.reload()
        expect(banner).to_be_hidden()
    finally:
        server.shutdown()
        server.server_close()


def test_a_static_host_shows_no_build_banner(page, playground_site):
    server, origin = serve_in_thread(playground_site)
    try:
        page.goto(origin + "/01-playground/index.html")
        expect(page.locator(".runtime-bar")).to_be_visible()
        assert page.locator("meta[name=course-dev-status]").count() == 0
        assert page.evaluate("(path) => fetch(path).then((r) => r.status)", STATUS_PATH) == 404
        expect(page.locator(".dev-banner")).to_have_count(0)
    finally:
        server.shutdown()
        server.server_close()


MINI_LESSON = """\
---
title: Mini
language: en
order: 1
summary: A lesson with code of its own.
---

```{code-cell} ipython3
from mini.words import WORD
print("cell says", WORD)
```

```{explorable} echo
The panel.
```

::::{exercise} double
:checker: double
:starter: exercises/starter.py
:solution: exercises/solution.py
:wrong: exercises/wrong

Write `double(x)`.
::::
"""
ECHO = """\
from course.explorables.engine import Choice, Explorable, Text

SAID = "panel says first"


def explorable():
    return Explorable([Choice("n", "N", [(1, "one"), (2, "two")]), Text("said")], state)


def state(n):
    return {"said": ["{} {}".format(SAID, n)]}
"""
DOUBLE = """\
FUNCTION = "double"
MESSAGES = {"no_function": "define {name}", "code_raised": "it raised {error}", "checker_failed": "{error}"}


def check(function):
    return [{"ok": function(3) == 6, "message": "double(3) must be 6"}]
"""


def write_mini_lesson(folder):
    """A lesson whose cell, explorable and checker all live in its own package `mini`."""
    (folder / "mini" / "explorables").mkdir(parents=True)
    (folder / "mini" / "checkers").mkdir()
    (folder / "exercises" / "wrong").mkdir(parents=True)
    (folder / "lesson.md").write_text(MINI_LESSON, encoding="utf-8")
    for name in ("mini/__init__.py", "mini/explorables/__init__.py", "mini/checkers/__init__.py"):
        (folder / name).write_text("", encoding="utf-8")
    (folder / "mini" / "words.py").write_text('WORD = "first"\n', encoding="utf-8")
    (folder / "mini" / "explorables" / "echo.py").write_text(ECHO, encoding="utf-8")
    (folder / "mini" / "checkers" / "double.py").write_text(DOUBLE, encoding="utf-8")
    (folder / "exercises" / "starter.py").write_text("def double(x):\n    pass\n", encoding="utf-8")
    (folder / "exercises" / "solution.py").write_text("def double(x):\n    return 2 * x\n", encoding="utf-8")
    (folder / "exercises" / "wrong" / "adds.py").write_text("def double(x):\n    return x + 1\n", encoding="utf-8")


def test_serve_picks_up_edits_to_a_lessons_own_code_its_explorable_and_its_checker(tmp_path):
    lessons = tmp_path / "lessons"
    folder = lessons / "01-mini"
    write_mini_lesson(folder)
    server = DevServer(lessons, tmp_path / "_site")
    try:
        page, status = "01-mini/index.html", STATUS_PATH.lstrip("/")
        body = server.page(page)
        assert "cell says first" in body and "panel says first 1" in body
        (folder / "mini" / "words.py").write_text('WORD = "second"\n', encoding="utf-8")
        server.wait_until(lambda: "cell says second" in server.page(page),
                          "an edit to the lesson's code was not picked up")
        echo = folder / "mini" / "explorables" / "echo.py"
        echo.write_text(ECHO.replace("panel says first", "panel says second"), encoding="utf-8")
        server.wait_until(lambda: "panel says second 1" in server.page(page),
                          "an edit to the explorable was not picked up")
        checker = folder / "mini" / "checkers" / "double.py"
        checker.write_text(DOUBLE.replace("function(3) == 6", "function(3) == 7"), encoding="utf-8")
        server.wait_until(lambda: "the reference solution fails its checker" in server.page(status),
                          "an edit to the checker was not picked up")
    finally:
        server.close()


def test_a_save_made_before_the_watcher_starts_still_rebuilds(tmp_path):
    """`build.py serve` takes the watcher's first snapshot before its first build: a save made while that
    build runs, or before the watching thread has looked, is a change to rebuild for, not the baseline."""
    lesson = tmp_path / "lesson.md"
    lesson.write_text("first")
    before = serve.snapshot([tmp_path])
    lesson.write_text("second, saved before the watcher's first look")
    built, stop = [], threading.Event()

    def build():
        built.append(lesson.read_text())
        stop.set()
        return []

    thread = threading.Thread(target=serve.watch, args=([tmp_path], build),
                              kwargs={"interval": 0.02, "stop": stop, "before": before}, daemon=True)
    thread.start()
    thread.join(10)
    assert built == ["second, saved before the watcher's first look"]
