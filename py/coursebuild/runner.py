"""Answer requests with course.worker in a fresh CPython process, cached by content hash.

The build's one way into Python (cells and exercise checks alike): the requests are those the
browser's worker passes on (see course.worker), and a separate process keeps lessons from
sharing state and lets the build stop a request that never ends.

    python -m coursebuild.runner     (the child: requests as a JSON list on stdin, replies on stdout)
"""

import asyncio
import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Optional

TIMEOUT_SECONDS = 600


@dataclass
class Settings:
    """Where the library is, where outputs are cached, what they depend on, how long a run may take."""

    py_dir: Path
    cache_dir: Path
    library: str
    timeout: float


@dataclass
class Outcome:
    """The replies, in request order; `stuck` is the index of the request that got none, and `reason` why."""

    replies: list
    stuck: Optional[int] = None
    reason: str = ""


def library_digest(py_dir):
    """A hash of the course library, so cached outputs follow its changes."""
    digest = hashlib.sha256()
    for path in sorted((py_dir / "course").rglob("*.py")):
        digest.update(str(path.relative_to(py_dir)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_key(requests, library):
    """Everything the replies depend on: the requests in order, the library and the interpreter."""
    payload = {"requests": requests, "library": library, "python": sys.version, "numpy": metadata.version("numpy")}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def cached_run(requests, settings):
    """run(), but replies already computed for exactly these requests come from the cache."""
    path = settings.cache_dir / "runs" / (cache_key(requests, settings.library) + ".json")
    if path.exists():
        return Outcome(json.loads(path.read_text(encoding="utf-8")))
    outcome = run(requests, settings)
    if outcome.stuck is None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(outcome.replies), encoding="utf-8")
    return outcome


def run(requests, settings):
    """Answer the requests in order in one fresh process."""
    env = dict(os.environ, PYTHONPATH=str(settings.py_dir), PYTHONHASHSEED="0", PYTHONIOENCODING="utf-8")
    try:
        done = subprocess.run([sys.executable, "-m", "coursebuild.runner"], input=json.dumps(requests),
                              capture_output=True, text=True, encoding="utf-8", env=env, timeout=settings.timeout)
    except subprocess.TimeoutExpired:
        return Outcome([], 0, "did not finish in {:g} s".format(settings.timeout))
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or ["no message"]
        return Outcome([], 0, "ended the Python process ({})".format(tail[0]))
    return Outcome(json.loads(done.stdout))


async def answer_all(requests):
    """Every reply, in order, from one Handler (one namespace), as the page's worker has."""
    from course.worker import Handler
    handler = Handler()
    return [await handler.handle(request) for request in requests]


def main():
    """The child: read the requests, answer them, print the replies."""
    requests = json.load(sys.stdin)
    stdout = sys.stdout
    stdout.write(json.dumps(asyncio.run(answer_all(requests))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
