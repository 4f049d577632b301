"""Answer requests with course.worker in a fresh CPython process, cached by content hash.

The build's one way into Python (cells and exercise checks alike): the requests are those the
browser's worker passes on (see course.worker), and a separate process keeps lessons from
sharing state and lets the build stop a request that never ends.

    python -m coursebuild.runner REQUESTS.json FD     (the child: one JSON line per reply on the pipe FD)

Explorables are drawn the same way (coursebuild.explorables.prerender), in the child.
"""

import asyncio
import hashlib
import importlib.abc
import importlib.machinery
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import Optional

from course import numbers

from . import packages, staging


@dataclass
class Settings:
    """Where the library is, where outputs are cached, what they depend on, how long one request may take.

    `lesson_dir` is the folder of the lesson whose requests these are: it goes on the path after the
    library, so the lesson imports its own package (and no other lesson's), and `library` then covers it.
    `packages_dir` holds exactly the wheels of the lesson's `packages:`, installed; it goes on the path last.
    """

    py_dir: Path
    cache_dir: Path
    library: str
    timeout: float
    lesson_dir: Optional[Path] = None
    packages_dir: Optional[Path] = None

    def for_lesson(self, lesson, wheels=()):
        """The same settings for one lesson's requests: its package and wheels importable, both in the cache key."""
        package = lesson.package_dir
        library = self.library + ("+" + package_digest(package) if package is not None else "")
        if wheels:
            library += "+packages:" + packages.set_key(wheels)
        return replace(self, lesson_dir=lesson.folder, library=library,
                       packages_dir=packages.install_target(wheels, self.cache_dir))


@dataclass
class Outcome:
    """The replies, in request order; `stuck` is the index of the request that got none, and `reason` why."""

    replies: list
    stuck: Optional[int] = None
    reason: str = ""
    timed_out: bool = False

    def hint(self):
        """What an author can do about a request that got no reply."""
        if self.timed_out:
            return "look for a loop that never ends, or allow more time with build.py --cell-timeout SECONDS"
        return "does the code end Python itself (os._exit, a crash in a library)?"


def library_digest(py_dir):
    """A hash of the course library, of the build's own code the runner's child runs (explorables are drawn by
    coursebuild.explorables there) and of the number formats, so cached outputs follow their changes."""
    formats = json.dumps(numbers.read_formats(py_dir.parent / "site" / "i18n"), sort_keys=True)
    return (package_digest(py_dir / "course") + package_digest(py_dir / "coursebuild")[:16]
            + hashlib.sha256(formats.encode()).hexdigest()[:16])


def package_digest(folder):
    """A hash of a package's Python files, so cached outputs follow their changes."""
    digest = hashlib.sha256()
    for path in sorted(Path(folder).rglob("*.py")):
        digest.update(str(path.relative_to(folder)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_key(requests, library):
    """Everything the replies depend on: the requests in order, the library and the interpreter."""
    payload = {"requests": requests, "library": library, "python": sys.version, "numpy": metadata.version("numpy")}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def cached_run(requests, settings):
    """run(), but replies already computed for exactly these requests come from the cache."""
    path = settings.cache_dir / "runs" / (cache_key(requests, settings.library) + ".json")
    replies = _read_cache(path, len(requests))
    if replies is not None:
        return Outcome(replies)
    outcome = run(requests, settings)
    if outcome.stuck is None:
        staging.write_text(path, json.dumps(outcome.replies))
    return outcome


def _read_cache(path, count):
    """The cached replies at path, or None when there are none that can be read (a miss, never an error)."""
    try:
        replies = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(replies, list) or len(replies) != count or not all(
            isinstance(reply, dict) and "ok" in reply for reply in replies):
        return None
    return replies


def run(requests, settings):
    """Answer the requests in order in one fresh process; a request unanswered after settings.timeout stops it.

    The requests go in through a file and the replies come back on a pipe of their own: the cells' code
    may write to the process's real stdout and stderr (os.write, os.system) or read its stdin, and none of
    that can reach either.
    """
    # One BLAS thread: the browser's NumPy has none, the small matrices of lessons gain nothing from more,
    # and on a busy machine threaded BLAS made a training cell ten times slower.
    path = [str(folder) for folder in (settings.py_dir, settings.lesson_dir, settings.packages_dir) if folder is not None]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path), PYTHONHASHSEED="0", PYTHONIOENCODING="utf-8",
               OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as folder:
        request_file = Path(folder) / "requests.json"
        request_file.write_text(json.dumps(requests), encoding="utf-8")
        with open(Path(folder) / "stderr", "w+b") as errors:
            reader, writer = os.pipe()
            try:
                process = subprocess.Popen([sys.executable, "-m", "coursebuild.runner", str(request_file), str(writer)],
                                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors,
                                           env=env, pass_fds=(writer,), start_new_session=True)
            finally:
                os.close(writer)
            try:
                outcome = _collect(reader, len(requests), settings.timeout)
            finally:
                os.close(reader)
                _end(process)
            if outcome.stuck is not None and not outcome.reason:
                errors.seek(0)
                tail = errors.read().decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
                outcome.reason = "ended the Python process ({})".format(tail[0])
    return outcome


def _collect(channel, count, timeout):
    """Read `count` replies, one JSON line each, allowing each `timeout` seconds after the one before."""
    replies, buffer = [], b""
    deadline = time.monotonic() + timeout
    while len(replies) < count:
        if b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            try:
                replies.append(json.loads(line.decode("utf-8")))
            except ValueError:  # only code that writes to the pipe on purpose gets here
                return Outcome(replies, len(replies), "wrote over the build's own channel")
            deadline = time.monotonic() + timeout
            continue
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([channel], [], [], remaining)[0]:
            return Outcome(replies, len(replies), "did not finish in {:g} s".format(timeout), timed_out=True)
        chunk = os.read(channel, 1 << 16)
        if not chunk:
            return Outcome(replies, len(replies))
        buffer += chunk
    return Outcome(replies)


def _end(process):
    """Stop the child and whatever it started (its own process group), and reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    process.wait()


async def answer_all(requests, channel):
    """Answer in order from one Handler (one namespace, as the page's worker has), one JSON line per reply.

    One request is the build's own: {"type": "explorable", "module", "number", "strings", "language"}
    draws every state of an explorable here, in this fresh process, so the build never imports a
    lesson's code itself and each build sees the code as it is now.
    """
    from course.worker import Handler
    handler = Handler()
    for request in requests:
        if request.get("type") == "explorable":
            from coursebuild.explorables import prerender
            reply = json.dumps({"ok": True, "value": prerender(request)})
        else:
            reply = await handler.handle_json(json.dumps(request))
        channel.write(reply + "\n")
        channel.flush()


class LessonImports(importlib.abc.MetaPathFinder):
    """Lets cells import what the page's worker has too, and nothing else the build's own Python happens to hold.

    A lesson's cells may import the standard library, NumPy (the runtime's), the course library, the lesson's
    own package and the wheels of its `packages:`. Anything else installed beside the build (PyYAML,
    markdown-it, pytest...) is refused with the same ModuleNotFoundError the browser raises, so a lesson that
    leans on it fails here, at its cell's line, not later in the learner's browser.
    """

    def __init__(self, folders):
        self.folders = [str(folder) for folder in folders]

    def find_spec(self, name, path=None, target=None):
        """None (import as usual) for what the lesson may import; refuse any other top-level module."""
        if path is not None or "." in name or name in sys.builtin_module_names or name in sys.stdlib_module_names:
            return None
        if name == "numpy" or importlib.machinery.PathFinder.find_spec(name, self.folders) is not None:
            return None
        raise ModuleNotFoundError("No module named {!r}".format(name), name=name)


def main(argv):
    """The child: read the requests from the file argv[0], answer them on the pipe argv[1] as they come."""
    sys.meta_path.insert(0, LessonImports(path for path in os.environ["PYTHONPATH"].split(os.pathsep) if path))
    requests = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    channel_fd = int(argv[1])
    os.set_inheritable(channel_fd, False)  # what a cell starts (os.system) must not hold the pipe open
    with open(channel_fd, "w", encoding="utf-8") as channel:
        asyncio.run(answer_all(requests, channel))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
