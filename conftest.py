"""The suite's fixtures serve both tests/ and every lesson's own tests in lessons/<lesson>/tests/; the markers of the
slow groups are given here, from what a test uses, so a new test cannot forget its own."""

import inspect
import sys
from pathlib import Path

import pytest

LESSONS = Path(__file__).resolve().parent / "lessons"
# A lesson's test module may share a fixture by name with the suite (tests/test_explorables.py takes test_lesson_003's
# `ukrainian`): each lesson's tests folder is importable, as tests/ is (pytest.ini's pythonpath).
sys.path[1:1] = [str(folder) for folder in sorted(LESSONS.glob("*/tests")) if folder.is_dir()]

pytest_plugins = ["course_fixtures"]

# The fixtures that start Chromium (course_fixtures.py); a fixture built on one of them counts too.
BROWSER_FIXTURES = {"playwright_session", "browser", "page"}


def _holds_module(module, name):
    """Whether the module `name` is among the globals of `module` (it imported it)."""
    return any(inspect.ismodule(value) and value.__name__ == name for value in vars(module).values())


def markers_of(item):
    """The slow groups a test belongs to: `browser` if it uses Chromium's fixtures, `engines` if its module drives
    the engines through tests/engines.py's launch, `jupyter` if its module runs a Jupyter kernel (nbclient)."""
    module = getattr(item, "module", None)
    marks = []
    if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
        marks.append("browser")
    if module is not None and getattr(vars(module).get("launch"), "__module__", None) == "engines":
        marks.append("engines")
    if module is not None and _holds_module(module, "nbclient"):
        marks.append("jupyter")
    return marks


def pytest_collection_modifyitems(items):
    """Mark every collected test with its slow groups (pytest.ini lists them; `make test-fast` leaves them out)."""
    for item in items:
        for name in markers_of(item):
            item.add_marker(getattr(pytest.mark, name))
