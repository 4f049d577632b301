"""`build.py serve`: builds, serves with the types Pyodide needs, compresses, and rebuilds on change."""

import gzip
import shutil
import subprocess
import sys
import threading
import time
import urllib.request

from coursebuild.serve import make_server
from support import ROOT

PLAYGROUND = ROOT / "tests" / "fixtures" / "playground" / "lessons"


def fetch(url, gzip_ok=False):
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gzip_ok else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
        if response.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        return response.headers, body


def test_serve_builds_serves_and_rebuilds_when_a_lesson_changes(tmp_path):
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
        deadline = time.monotonic() + 30
        while "Змінений текст." not in fetch(url + "02-druhyi/index.html")[1].decode():
            assert time.monotonic() < deadline, "the page was not rebuilt after the lesson changed"
            time.sleep(0.2)
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
