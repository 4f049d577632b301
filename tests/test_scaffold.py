"""`build.py new`: the folder it numbers, the checker and test it writes, and a new lesson that passes, as written,
its own tests and the suite's tests for it (`pytest --lesson NAME`) in a copy of the course (never in lessons/
itself), and whose page folds its quiz's answer in Chromium."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import test_browser_answer_first as answer_first

from coursebuild import cli
from coursebuild.lesson import package_name
from support import ROOT, Server, build_site

LANGUAGES = ["en", "es", "uk"]
COURSE_FILES = ("build.py", "conftest.py", "pytest.ini", "ruff.toml", "jupytext.toml", "py", "site", "tests",
                "lessons", "benchmarks", "docs")  # all the suite collects and reads (glossaries are in docs/)
# The suite's tests parametrised by lesson that need no browser, each of which the new lesson must pass.
SUITE_MODULES = ("test_exercises", "test_explorables", "test_glossary", "test_lessons")


def lesson(lessons, slug, order):
    (lessons / slug).mkdir(parents=True)
    (lessons / slug / "lesson.md").write_text("---\ntitle: T\nlanguage: en\norder: {}\nsummary: S.\n---\n\nText.\n"
                                              .format(order), encoding="utf-8")


def test_new_numbers_its_folder_after_the_last_folder_and_its_order_after_the_highest_order(tmp_path):
    lessons = tmp_path / "lessons"
    lesson(lessons, "003-early", 7)  # the course reorders lessons with order:, never by renaming folders
    lesson(lessons, "004-ejercicios", 2)
    assert cli.main(["--lessons", str(lessons), "new", "softmax-basics"]) == 0
    assert sorted(path.name for path in lessons.iterdir()) == ["003-early", "004-ejercicios", "005-softmax-basics"]
    assert "\norder: 8\n" in (lessons / "005-softmax-basics" / "lesson.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("language", LANGUAGES)
def test_new_writes_lint_clean_files_and_a_checker_built_on_the_common_helpers(tmp_path, language):
    lessons = tmp_path / "lessons"
    assert cli.main(["--lessons", str(lessons), "new", "softmax-basics", "--language", language]) == 0
    folder = lessons / "000-softmax-basics"
    shutil.copyfile(ROOT / "ruff.toml", tmp_path / "ruff.toml")  # its paths (lessons/**/starter.py) are from here
    lint = subprocess.run([sys.executable, "-m", "ruff", "check", str(folder)], cwd=tmp_path, capture_output=True,
                          text=True)
    assert lint.returncode == 0, lint.stdout
    checker = (folder / "softmax_basics" / "checkers" / "softmax.py").read_text(encoding="utf-8")
    assert "from course.checkers.common import Phrasebook, run_cases" in checker
    assert max(len(line) for line in checker.splitlines()) <= 120
    assert re.search(r"^FUNCTION = \"softmax\"$", checker, re.M) and "def check(function):" in checker
    test = folder / "tests" / "test_lesson.py"
    assert "from support import build_site" in test.read_text(encoding="utf-8")
    assert len(list((folder / "exercises" / "softmax" / "wrong").glob("*.py"))) >= 2


def course_copy(target):
    """The course's sources and lessons copied into `target`, NumPy's runtime shared through node_modules."""
    target.mkdir()
    for name in COURSE_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        else:
            shutil.copyfile(source, target / name)
    (target / "node_modules").symlink_to(ROOT / "node_modules")
    return target


def selected(config):
    """The markers of the suite's tests the copy runs for the new lessons: none of the browser's (the suite's would
    build the whole course; the test below checks the page), and within what this run selects, so that `make
    test-fast` starts no Jupyter kernel there either."""
    chosen = config.getoption("markexpr")
    return "not browser and not engines" + (" and ({})".format(chosen) if chosen else "")


@pytest.fixture(scope="module")
def new_lessons(tmp_path_factory, request):
    """A copy of the course, a lesson added to it in each language with `build.py new` as an author runs it, and one
    run of the suite there for those lessons (`pytest --lesson NAME`, once per lesson, all in one run): ({language:
    (folder, what `new` printed)}, the copy, the lesson folders before, {test id: outcome}, the run's output)."""
    before = sorted(path.name for path in (ROOT / "lessons").iterdir())
    course = course_copy(tmp_path_factory.mktemp("copy") / "course")
    made = {}
    for language in LANGUAGES:
        new = subprocess.run([sys.executable, "build.py", "new", "softmax-" + language, "--language", language],
                             cwd=course, capture_output=True, text=True, timeout=60)
        assert new.returncode == 0, new.stderr
        made[language] = (sorted((course / "lessons").glob("*-softmax-" + language))[-1].name, new.stdout)
    env = {name: value for name, value in os.environ.items() if not name.startswith("PYTEST_XDIST")}
    env["COURSE_CACHE"] = os.environ.get("COURSE_CACHE", str(ROOT / ".cache"))
    run = subprocess.run([sys.executable, "-m", "pytest", "-m", selected(request.config), "-v", "-p", "no:cacheprovider",
                          "--basetemp", str(tmp_path_factory.mktemp("runs"))]
                         + ["--lesson=" + folder for folder, _ in made.values()],
                         cwd=course, env=env, capture_output=True, text=True, timeout=500)
    outcomes = dict(re.findall(r"^(\S+::.*?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b", run.stdout, re.M))
    return made, course, before, outcomes, run.stdout + run.stderr


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_new_lesson_passes_its_own_tests_and_the_suites_for_it_in_a_copy_of_the_course(new_lessons, language,
                                                                                        request):
    made, course, before, outcomes, output = new_lessons
    folder, said = made[language]
    assert sorted(made[each][0] for each in LANGUAGES) == [
        "{:03d}-softmax-{}".format(int([name for name in before if name[:3].isdigit()][-1][:3]) + 1 + index, each)
        for index, each in enumerate(LANGUAGES)]  # lessons/corpora/ is shared data, not a numbered lesson
    own = course / "lessons" / folder / "tests" / "test_lesson.py"
    package = package_name(folder)
    mine = {test: outcome for test, outcome in outcomes.items()
            if re.search(r"(?<![0-9A-Za-z_])({}|{})(?![0-9A-Za-z_])".format(folder, package), test)}
    assert mine and set(mine.values()) == {"PASSED"}, (mine, output[-3000:])
    for test in re.findall(r"^def (test_\w+)", own.read_text(encoding="utf-8"), re.M):
        assert "lessons/{}/tests/test_lesson.py::{}".format(folder, test) in mine, output[-3000:]
    kernel = "jupyter" not in selected(request.config)
    modules = set(SUITE_MODULES) | ({"test_jupyter"} if kernel else set())
    assert modules <= {Path(test.split("::")[0]).stem for test in mine}, (sorted(mine), output[-3000:])
    for command in ("make test-fast LESSON={}", "make test LESSON={}"):  # what both tell the author to run
        assert command.format(folder) in said and command.format(folder) in own.read_text(encoding="utf-8")
    assert sorted(path.name for path in (ROOT / "lessons").iterdir()) == before


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_new_lessons_page_folds_its_quizs_answer_and_shows_none_of_its_numbers(tmp_path, page, language):
    lessons = tmp_path / "lessons"
    assert cli.main(["--lessons", str(lessons), "new", "softmax-basics", "--language", language]) == 0
    server = Server(build_site(lessons, tmp_path / "_site"))
    try:  # the suite's own check, on the new lesson's page built alone
        answer_first.test_the_text_after_each_fold_shows_none_of_the_numbers_it_hides(
            page, server, "000-softmax-basics/index.html")
    finally:
        server.close()

