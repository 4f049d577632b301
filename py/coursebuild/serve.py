"""Serve the built site on 127.0.0.1 with the types and compression Pyodide needs, rebuilding on change."""

import functools
import gzip
import http.server
import io
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
        path = Path(self.translate_path(self.path))
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not accepts or path.suffix not in COMPRESSED or not path.is_file():
            return super().send_head()
        body = self._compressed(path)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(path.stat().st_mtime)))
        self.send_header("Vary", "Accept-Encoding")
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


def make_server(site_dir, port=8000, host="127.0.0.1", record=False):
    """A threading HTTP server for site_dir (port 0 picks a free port).

    With record=True it keeps (path, bytes) of every GET answered in `server.log`, which grows with
    every request: only tests and benchmarks ask for it, never `build.py serve`.
    """
    handler = functools.partial(Handler, site_dir=Path(site_dir))
    server = Server((host, port), handler)
    server.log = [] if record else None
    return server


def snapshot(folders):
    """Modification times of the files whose change calls for a rebuild."""
    times = {}
    for folder in folders:
        for path in Path(folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                times[str(path)] = path.stat().st_mtime_ns
    return times


def watch(folders, rebuild, interval=1.0, stop=None):
    """Call rebuild() whenever a file in `folders` changes, until stop is set."""
    before = snapshot(folders)
    while stop is None or not stop.is_set():
        time.sleep(interval)
        now = snapshot(folders)
        if now != before:
            before = now
            rebuild()
