"""`build.py serve`: builds, serves with the types Pyodide needs, compresses, and rebuilds on change."""

import gzip
import json
import shutil
import subprocess
import sys
import threading
import time
import urllib.request

from playwright.sync_api import expect

from coursebuild import serve
from coursebuild.serve import STATUS_PATH, BuildStatus, make_server
from support import ROOT

PLAYGROUND = ROOT / "tests" / "fixtures" / "playground" / "lessons"
BROKEN = b"\n\xff\xfe not UTF-8\n"


def fetch(url, gzip_ok=False):
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gzip_ok else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
        if response.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        return response.headers, body


def wait_for_page(url, text):
    """Wait (at most 30 s) until the dev server's second lesson contains text."""
    deadline = time.monotonic() + 30
    while text not in fetch(url + "02-druhyi/index.html")[1].decode():
        assert time.monotonic() < deadline, "the page was not rebuilt after the lesson changed"
        time.sleep(0.2)


def test_serve_builds_serves_and_rebuilds_when_a_lesson_changes_even_after_a_build_that_raised(tmp_path):
    lessons = tmp_path / "lessons"
    shutil.copytree(PLAYGROUND, lessons)
    server = subprocess.Popen([sys.executable, str(ROOT / "build.py"), "--lessons", str(lessons), "--out",
                               str(tmp_path / "_site"), "serve", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = None
        for line in server.stdout:
            if line.startswith("Serving "):
                url = line.split(" at ")[1].split(" ")[0]
                break
        assert url and url.startswith("http://127.0.0.1:")
        headers, body = fetch(url + "02-druhyi/index.html", gzip_ok=True)
        assert headers["Content-Encoding"] == "gzip" and "Комірка на другій сторінці." in body.decode()
        wasm = next(name for name in (tmp_path / "_site" / "runtime").iterdir() if name.suffix == ".wasm")
        assert fetch(url + "runtime/" + wasm.name)[0]["Content-Type"] == "application/wasm"
        assert fetch(url + "assets/worker-module.mjs")[0]["Content-Type"] == "text/javascript"
        lesson = lessons / "02-druhyi" / "lesson.md"
        lesson.write_text(lesson.read_text().replace("Комірка на другій сторінці.", "Змінений текст."))
        wait_for_page(url, "Змінений текст.")
        lesson.write_bytes(lesson.read_bytes() + BROKEN)  # a build that raised used to kill the watcher
        deadline = time.monotonic() + 30
        while json.loads(fetch(url + STATUS_PATH.lstrip("/"))[1])["state"] != "failed":
            assert time.monotonic() < deadline, "the dev server never said the build failed"
            time.sleep(0.2)
        lesson.write_text(lesson.read_bytes()[:-len(BROKEN)].decode().replace(
            "Змінений текст.", "Виправлено й зібрано знову."))
        wait_for_page(url, "Виправлено й зібрано знову.")
        assert json.loads(fetch(url + STATUS_PATH.lstrip("/"))[1])["state"] == "ok"
    finally:
        server.terminate()
        server.wait(timeout=10)


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


def test_the_watcher_survives_a_build_that_crashes_and_rebuilds_on_the_next_save(tmp_path, monkeypatch):
    lesson = tmp_path / "lesson.md"
    lesson.write_text("first")
    looked, built, printed = threading.Event(), [], []
    real_snapshot = serve.snapshot

    def snapshot(folders):
        times = real_snapshot(folders)
        looked.set()
        return times

    def build():
        built.append(lesson.read_text())
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
            assert looked.wait(10)  # the watcher has seen the folder as it is now
            lesson.write_text(text)
            deadline = time.monotonic() + 10
            while built[-1:] != [text]:
                assert thread.is_alive(), "the watch thread died"
                assert time.monotonic() < deadline, "no rebuild after saving {!r}".format(text)
                time.sleep(0.02)
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
