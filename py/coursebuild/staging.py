"""Entries of the build's cache (.cache/), written so that builds sharing one cache never meet half-way.

Each writer stages under a name of its own (tempfile's), then moves the entry into place in one step: a build
killed while writing leaves no half entry under the real name, and two builds writing the same entry at once
(`make test-fast` runs a build per core; an author may build while the tests run) never write into one file.
"""

import os
import shutil
import tempfile
from pathlib import Path


def write_text(path, text):
    """Write `text` (UTF-8) to `path` through a staged file of this writer's own."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, staged = tempfile.mkstemp(prefix=path.name + ".", suffix=".partial", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(staged, path)
    except BaseException:
        Path(staged).unlink(missing_ok=True)
        raise


def new_file(target):
    """A fresh, empty staging file beside `target`, for a writer that streams into it; move it with `place`."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, staged = tempfile.mkstemp(prefix=target.name + ".", suffix=".partial", dir=target.parent)
    os.close(handle)
    return Path(staged)


def new_folder(target):
    """A fresh, empty staging folder beside `target`; move it into place with `place`."""
    target.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=target.name + ".", suffix=".partial", dir=target.parent))


def place(staged, target, replace=False):
    """Move a staged file or folder to `target`. A folder another writer placed first is kept (its entry is the
    same, as the names are content digests) unless `replace`, and the staged copy is dropped."""
    if staged.is_dir():
        if replace:
            shutil.rmtree(target, ignore_errors=True)
        try:
            staged.rename(target)
        except OSError:
            if not target.is_dir():
                raise
            shutil.rmtree(staged, ignore_errors=True)
    else:
        os.replace(staged, target)


def discard(staged):
    """Remove a staged file or folder that will not be placed."""
    if staged.is_dir():
        shutil.rmtree(staged, ignore_errors=True)
    else:
        staged.unlink(missing_ok=True)
