"""Execute each lesson's cells in CPython at build time, cached by content hash."""

import hashlib
import json
import os
import subprocess
import sys
from importlib import metadata

from .errors import LessonError

TIMEOUT_SECONDS = 600


def library_digest(py_dir):
    """A hash of the course library, so cached outputs follow its changes."""
    digest = hashlib.sha256()
    for path in sorted((py_dir / "course").rglob("*.py")):
        digest.update(str(path.relative_to(py_dir)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_key(lesson, label, library):
    """Everything a lesson's outputs depend on: its cells in order, the library and the interpreter."""
    payload = {
        "cells": [[cell.number, cell.code] for cell in lesson.cells],
        "label": label,
        "library": library,
        "python": sys.version,
        "numpy": metadata.version("numpy"),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def run_cells(lesson, label, py_dir, cache_dir, library):
    """Return ({cell number: output items}, {glued name: value}, errors), cached by content hash."""
    if not lesson.cells:
        return {}, {}, []
    key = cache_key(lesson, label, library)
    cached = cache_dir / "cells" / (key + ".json")
    if cached.exists():
        done = json.loads(cached.read_text(encoding="utf-8"))
    else:
        done = _run(lesson, label, py_dir)
        if isinstance(done, LessonError):
            return {}, {}, [done]
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_text(json.dumps(done), encoding="utf-8")
    results = done["results"]
    outputs = {}
    errors = []
    for cell, result in zip(lesson.cells, results):
        outputs[cell.number] = result["output"]
        error = _unexpected(lesson, cell, result)
        if error is not None:
            errors.append(error)
    return outputs, done["glue"], errors


def _run(lesson, label, py_dir):
    request = {"label": label, "cells": [{"id": cell.number, "code": cell.code} for cell in lesson.cells]}
    env = dict(os.environ, PYTHONPATH=str(py_dir), PYTHONHASHSEED="0", PYTHONIOENCODING="utf-8")
    try:
        done = subprocess.run([sys.executable, "-m", "coursebuild.cellrun"], input=json.dumps(request),
                              capture_output=True, text=True, encoding="utf-8", env=env, timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        return LessonError(lesson.path, lesson.cells[0].line,
                           "the cells did not finish in {} s; look for a loop that never ends".format(TIMEOUT_SECONDS))
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or ["no message"]
        return LessonError(lesson.path, lesson.cells[0].line,
                           "the cells could not be run ({}); is the course library importable?".format(tail[0]))
    return json.loads(done.stdout)


def _unexpected(lesson, cell, result):
    """An error for a cell that raised without being marked, or was marked and did not raise."""
    if result["ok"] and cell.raises:
        return LessonError(lesson.path, cell.line, "cell {} is tagged raises-exception but ran without error; "
                           "remove the tag or make it raise".format(cell.number))
    if not result["ok"] and not cell.raises:
        trace = next((item["text"] for item in result["output"] if item["type"] == "error"), "")
        last = trace.strip().splitlines()[-1] if trace.strip() else "an exception"
        line = cell.code_line + _cell_line(trace, cell.number) - 1
        return LessonError(lesson.path, line, "cell {} raised {}; fix the code, or tag the cell "
                           "':tags: [raises-exception]' if the error is the point".format(cell.number, last))
    return None


def _cell_line(trace, number):
    """The line of the last frame in cell `number`, from a trimmed traceback (1 if unknown)."""
    line = 1
    for text in trace.splitlines():
        text = text.strip()
        if text.startswith('File "<') and " {}>\"".format(number) in text and ", line " in text:
            line = int(text.split(", line ")[1].split(",")[0])
    return line
