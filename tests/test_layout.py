"""A lesson is one folder: its code lives beside it, and the general library names no lesson."""

import importlib
import re

import pytest

from coursebuild.lesson import package_name
from support import ROOT

LESSONS = sorted(path.parent for path in (ROOT / "lessons").glob("*/lesson.md"))
LIBRARY = sorted((ROOT / "py" / "course").rglob("*.py"))


def names_of(folder):
    """The words that would tie a module to one lesson: its folder, its package, 'lesson NNN', its title."""
    title = re.search(r"^title: *(.+)$", (folder / "lesson.md").read_text(encoding="utf-8"), re.M).group(1).strip()
    order = re.match(r"[0-9]+", folder.name).group(0)
    return [folder.name, package_name(folder.name), "lesson " + order, "lección " + order, "урок " + order, title]


@pytest.mark.parametrize("path", LIBRARY, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_no_module_of_the_general_library_names_a_lesson(path):
    text = path.read_text(encoding="utf-8").lower()
    for folder in LESSONS:
        for name in names_of(folder):
            assert name.lower() not in text, "{} names lesson {} ('{}'): move what belongs to one lesson into " \
                                             "its package".format(path.relative_to(ROOT), folder.name, name)


def test_every_lesson_package_imports_at_once_under_its_own_name():
    packages = [package_name(folder.name) for folder in LESSONS if (folder / package_name(folder.name)).is_dir()]
    assert len(packages) == len(set(packages)) == len(LESSONS)
    for name in packages:
        module = importlib.import_module(name)
        assert module.__file__.startswith(str(ROOT / "lessons")), name
