"""The suite's fixtures serve both tests/ and every lesson's own tests in lessons/<lesson>/tests/; the markers of the
slow groups are given here, from what a test uses, so a new test cannot forget its own; `--lesson NAME` keeps one
lesson's tests."""

import inspect
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

# NumPy's BLAS on one thread, before anything imports NumPy, as the build's runner runs cells (runner.py): the course's
# matrices are small, so a second thread buys nothing and doubles the CPU (lesson 003's two slowest trainings: 14 s of
# CPU on two threads, 7 s on one, in the same 8 s on an idle 2-core machine, and 61 s against 7 s on a busy one).
# The environment can still ask for more.
for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(variable, "1")

LESSONS = Path(__file__).resolve().parent / "lessons"
# A lesson's test module may share a fixture by name with the suite (tests/test_explorables.py takes test_lesson_003's
# `ukrainian`): each lesson's tests folder is importable, as tests/ is (pytest.ini's pythonpath).
sys.path[1:1] = [str(folder) for folder in sorted(LESSONS.glob("*/tests")) if folder.is_dir()]

pytest_plugins = ["course_fixtures"]

# The fixture every Chromium of the suite comes from (course_fixtures.py: `browser` and `page` are built on it). A test
# needs a browser when it is in the test's closure of fixtures, which a module's own `page` (a built page's text, in
# lessons/000-varias-cabezas/tests/test_lesson_000.py) does not bring.
BROWSER_FIXTURE = "playwright_session"


def _holds_module(module, name):
    """Whether the module `name` is among the globals of `module` (it imported it)."""
    return any(inspect.ismodule(value) and value.__name__ == name for value in vars(module).values())


def markers_of(item):
    """The slow groups a test belongs to: `browser` if its fixtures start Chromium, `engines` if its module drives
    the engines through tests/engines.py's launch, `jupyter` if its module runs a Jupyter kernel (nbclient)."""
    module = getattr(item, "module", None)
    marks = []
    if BROWSER_FIXTURE in getattr(item, "fixturenames", ()):
        marks.append("browser")
    if module is not None and getattr(vars(module).get("launch"), "__module__", None) == "engines":
        marks.append("engines")
    if module is not None and _holds_module(module, "nbclient"):
        marks.append("jupyter")
    return marks


# Under pytest-xdist (`make test-fast` runs `-n auto`), each worker builds with a cache of its own: the build's cache
# writes (cell runs, bundles, package records) are made for one process at a time, and two workers filling the same
# entry at once could clash. A worker's cache starts as hard links to the shared one (.cache/, or $COURSE_CACHE), so
# what is cached costs nothing; at its end, what it added moves into the shared cache, each file or folder whole.
WORKERS = "xdist"  # .cache/xdist/<worker>-<pid>/: the workers' caches, beside what they share
REWRITTEN = Path("packages", "wheels")  # the one folder whose files a build may write again in place: copied, not linked


def pytest_configure(config):
    worker = getattr(config, "workerinput", {}).get("workerid")
    if worker is None:
        return
    shared = Path(os.environ.get("COURSE_CACHE", str(Path(__file__).resolve().parent / ".cache")))
    for stale in (shared / WORKERS).glob("*-*"):  # left by a run that was killed
        if not _alive(int(stale.name.rsplit("-", 1)[1])):
            shutil.rmtree(stale, ignore_errors=True)
    own = shared / WORKERS / "{}-{}".format(worker, os.getpid())
    shutil.copytree(shared, own, ignore=lambda folder, names: [WORKERS] if Path(folder) == shared else [],
                    copy_function=lambda source, target: _link(source, target, shared / REWRITTEN))
    config.course_caches = shared, own
    os.environ["COURSE_CACHE"] = str(own)


def pytest_unconfigure(config):
    shared, own = getattr(config, "course_caches", (None, None))
    if own is not None:
        _merge(own, shared)
        shutil.rmtree(own, ignore_errors=True)


def _link(source, target, rewritten):
    """A hard link to a file the cache's writers only ever replace; a copy of one they may rewrite, or where the file
    system has no hard links."""
    try:
        if Path(source).parent == rewritten:
            raise OSError("copied")
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        pass
    return True


def _merge(source, target):
    """Move into `target` every file and folder of `source` it lacks, each with one rename (atomic, so another
    process never sees half of it); the cache names its entries by their content, so either copy of one is as good."""
    for path in source.iterdir():
        there = target / path.name
        if path.is_dir() and there.is_dir():
            _merge(path, there)
        elif not there.exists() and not path.name.endswith(".partial"):
            try:
                path.rename(there)
            except OSError:
                pass  # another worker moved the same folder there first


def pytest_addoption(parser):
    parser.addoption("--lesson", metavar="NAME", action="append",
                     help="run one lesson's tests: its folder's tests/ and the suite's tests parametrised by lesson, "
                          "for that lesson (NAME: its folder, 005-position-and-block, or the part after the number); "
                          "give it again for more lessons")


def lessons_named(item, names):
    """The lesson folders a test's parameters name (its id holds the folder's or its package's name), from `names`,
    a {name: folder} table; a folder whose name begins another's found there is the longer one's prefix, not it."""
    found = {folder for name, folder in names.items()
             if re.search(r"(?<![0-9A-Za-z_]){}(?![0-9A-Za-z_])".format(re.escape(name)), item.callspec.id)} \
        if hasattr(item, "callspec") else set()
    return {folder for folder in found if not any(other != folder and other.startswith(folder) for other in found)}


def folder_of(item):
    """The lesson folder a test's file sits in (lessons/<folder>/tests/), or None for the suite's own tests."""
    try:
        return Path(str(item.path)).resolve().relative_to(LESSONS.resolve()).parts[0]
    except ValueError:
        return None


def one_lessons_tests(config, items, lessons):
    """Keep the tests of the lessons named: those in their folders, and those of tests/ whose parameters name one."""
    from coursebuild.lesson import package_name
    from coursebuild.site import find_lesson
    try:
        chosen = {find_lesson(LESSONS, name) for name in lessons}
    except ValueError as error:
        raise pytest.UsageError("--lesson: {}".format(error)) from error
    folders = sorted(path.name for path in LESSONS.iterdir() if path.is_dir())
    names = dict({folder: folder for folder in folders}, **{package_name(folder): folder for folder in folders})
    keep, drop = [], []
    for item in items:
        folder = folder_of(item)
        mine = folder in chosen if folder else bool(chosen & lessons_named(item, names))
        (keep if mine else drop).append(item)
    config.hook.pytest_deselected(items=drop)
    items[:] = keep


def pytest_collection_modifyitems(config, items):
    """Mark every collected test with its slow groups (pytest.ini lists them; `make test-fast` leaves them out), then
    keep one lesson's tests (or a few lessons') if --lesson asks."""
    for item in items:
        for name in markers_of(item):
            item.add_marker(getattr(pytest.mark, name))
    if config.getoption("lesson"):
        one_lessons_tests(config, items, config.getoption("lesson"))
