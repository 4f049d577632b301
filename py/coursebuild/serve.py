"""Serve the built site on 127.0.0.1 with the types and compression Pyodide needs, rebuilding on change.

As `build.py serve`, the server also tells its pages how the latest build went: every HTML page it
sends carries a <meta name="course-dev-status"> pointing at STATUS_PATH, and the page shows a banner
while a rebuild runs, after one failed, or once the page is older than the site. A static host sends
no such tag, so its pages never show the banner.
"""

import email.utils
import functools
import gzip
import http.server
import io
import json
import sys
import threading
import time
from pathlib import Path

TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".data": "application/octet-stream",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".svg": "image/svg+xml",
}
COMPRESSED = (".html", ".css", ".js", ".mjs", ".json", ".wasm", ".data", ".svg", ".txt")
STATUS_PATH = "/__course_dev__/status.json"


class BuildStatus:
    """How the latest build went, for the dev server's pages: building, ok or failed (with its errors).

    `generation` counts the builds that replaced the site, so a page knows whether it is older than the site.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self.state = "ok"
        self.errors = []
        self.generation = 0

    def building(self):
        """A rebuild has started."""
        with self._lock:
            self.state = "building"

    def finished(self, errors):
        """A build ended: with no errors it replaced the site; otherwise the old site is still served."""
        with self._lock:
            self.errors = [str(error) for error in errors]
            self.state = "failed" if self.errors else "ok"
            if not self.errors:
                self.generation += 1

    def as_json(self):
        """The status as the pages read it."""
        with self._lock:
            return json.dumps({"state": self.state, "errors": self.errors, "generation": self.generation})


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with exact MIME types, gzip for text and wasm, and caching fit for each kind."""

    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES)
    _gzip_cache = {}
    _gzip_lock = threading.Lock()

    def __init__(self, *args, site_dir, **kwargs):
        super().__init__(*args, directory=str(site_dir), **kwargs)

    def log_message(self, format, *args):
        pass

    def send_header(self, keyword, value):
        if keyword.lower() == "content-length":
            self._length = int(value)
        super().send_header(keyword, value)

    def do_GET(self):
        """Serve the file; a server made with record=True notes (path, bytes sent), for tests and benchmarks."""
        self._length = 0
        super().do_GET()
        if self.server.log is not None:
            self.server.log.append((self.path.split("?", 1)[0], self._length))

    def end_headers(self):
        path = self.path.split("?", 1)[0]
        if "/runtime/" in path:
            self.send_header("Cache-Control", "public, max-age=86400")
        else:
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        """Send compressed bodies when the client accepts gzip; fall back to the plain file."""
        status = self.server.status
        if status is not None:
            body = self._dev_body(status)
            if body is not None:
                return self._send_bytes(*body)
        path = Path(self.translate_path(self.path))
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not accepts or path.suffix not in COMPRESSED or not path.is_file():
            return super().send_head()
        if self._not_modified(path):
            self.send_response(304)
            self.send_header("Last-Modified", self.date_time_string(int(path.stat().st_mtime)))
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return None
        body = self._compressed(path)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(path.stat().st_mtime)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)

    def _not_modified(self, path):
        """Whether the request's If-Modified-Since already names the file's time (the plain path checks it too)."""
        since = self.headers.get("If-Modified-Since")
        if not since or self.headers.get("If-None-Match"):
            return False
        try:
            when = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        return when.tzinfo is not None and int(path.stat().st_mtime) <= when.timestamp()

    def _dev_body(self, status):
        """As the dev server: the build status, or an HTML page with the tag that points at it (else None)."""
        url_path = self.path.split("?", 1)[0]
        if url_path == STATUS_PATH:
            return status.as_json().encode(), "application/json"
        path = Path(self.translate_path(self.path))
        if url_path.endswith("/") and path.is_dir():
            path = path / "index.html"
        if path.suffix != ".html" or not path.is_file():
            return None
        tag = '<head>\n<meta name="course-dev-status" content="{}" data-generation="{}">'.format(
            STATUS_PATH, status.generation)
        return path.read_bytes().replace(b"<head>", tag.encode(), 1), "text/html; charset=utf-8"

    def _send_bytes(self, body, content_type):
        """Answer with `body`, gzipped when the client accepts it."""
        encoded = "gzip" in self.headers.get("Accept-Encoding", "")
        if encoded:
            body = gzip.compress(body, compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        if encoded:
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    @classmethod
    def _compressed(cls, path):
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size, stat.st_ino)
        with cls._gzip_lock:
            body = cls._gzip_cache.get(key)
            if body is None:
                body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
                cls._gzip_cache[key] = body
        return body


class Server(http.server.ThreadingHTTPServer):
    """Quiet about browsers that drop a connection (they do, when a page is left mid-download)."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(site_dir, port=8000, host="127.0.0.1", record=False, status=None):
    """A threading HTTP server for site_dir (port 0 picks a free port).

    With record=True it keeps (path, bytes) of every GET answered in `server.log`, which grows with
    every request: only tests and benchmarks ask for it, never `build.py serve`. With a BuildStatus it
    is the dev server, whose pages show how the latest build went.
    """
    handler = functools.partial(Handler, site_dir=Path(site_dir))
    server = Server((host, port), handler)
    server.log = [] if record else None
    server.status = status
    return server


def snapshot(folders):
    """Modification times of the files whose change calls for a rebuild."""
    times = {}
    for folder in folders:
        for path in Path(folder).rglob("*"):
            try:
                if path.is_file() and "__pycache__" not in path.parts:
                    times[str(path)] = path.stat().st_mtime_ns
            except OSError:
                continue  # deleted or renamed while we looked (editors save that way): the next look sees it
    return times


def rebuild(build, status=None, log=None):
    """Run build() (which returns its errors, none on success) and record the outcome; never raises.

    A build that crashes (an exception the build did not turn into errors) is printed in one line and
    recorded as failed, so `build.py serve` keeps watching and rebuilds on the next save.
    """
    log = log or (lambda text: print(text, file=sys.stderr, flush=True))
    if status is not None:
        status.building()
    try:
        errors = list(build() or [])
    except Exception as error:  # whatever went wrong, the watcher must survive it
        errors = ["the build crashed: {}: {} (the site was left as it was; save again after fixing it)".format(
            type(error).__name__, error)]
        log("build.py serve: " + errors[0])
    if status is not None:
        status.finished(errors)
    return errors


def watch(folders, build, status=None, interval=1.0, stop=None, log=None, before=None):
    """Rebuild whenever a file in `folders` changes, until stop is set; no failure ends the watching.

    `before` is the snapshot the first look compares with (by default, one taken now). `build.py serve`
    takes it before its first build, so a save made while that build runs, or between the server's
    "Serving" line and this thread's start, still calls for a rebuild.
    """
    before = snapshot(folders) if before is None else before
    while stop is None or not stop.is_set():
        time.sleep(interval)
        try:
            now = snapshot(folders)
        except OSError:
            continue  # a watched folder vanished for a moment; look again
        if now != before:
            before = now
            rebuild(build, status, log)
