"""The build's way into Python (coursebuild.runner): timeouts, a channel cell code cannot corrupt, the cache."""

import json

import pytest

from coursebuild import cli, runner
from support import ROOT, give_checker

HEADER = "---\ntitle: T\nlanguage: en\norder: 1\nsummary: S\n---\n\n"


def write_lesson(root, body):
    """A lesson in root; its first line of code names root, so the shared cache never answers for it."""
    folder = root / "lessons" / "01-lesson"
    folder.mkdir(parents=True, exist_ok=True)
    body = body.replace("```{code-cell} ipython3\n", "```{code-cell} ipython3\n# " + root.name + "\n", 1)
    (folder / "lesson.md").write_text(HEADER + body, encoding="utf-8")
    if ":checker: multi_head" in body:
        give_checker(folder)
    return folder


def build(root, capsys, *flags):
    status = cli.main(["--lessons", str(root / "lessons"), "--out", str(root / "_site"), *flags, "build"])
    return status, capsys.readouterr().err


def test_a_cell_that_never_ends_fails_the_build_at_its_own_line_after_the_cell_timeout(tmp_path, capsys):
    write_lesson(tmp_path, "```{code-cell} ipython3\nx = 1\n```\n\n```{code-cell} ipython3\nwhile True:\n    pass\n```\n")
    status, err = build(tmp_path, capsys, "--cell-timeout", "2")
    assert status == 1
    assert "lesson.md:13: cell 2 did not finish in 2 s" in err and "--cell-timeout" in err
    assert "Traceback" not in err


def test_the_cell_timeout_defaults_to_a_minute_and_is_documented_in_help(capsys):
    assert cli.parser().parse_args(["build"]).cell_timeout == 60
    assert "--cell-timeout" in cli.parser().format_help()


@pytest.mark.parametrize("value", ["0", "-5", "soon", "nan", "inf"])
def test_a_cell_timeout_that_is_not_a_positive_number_is_refused(capsys, value):
    with pytest.raises(SystemExit) as exit:
        cli.parser().parse_args(["--cell-timeout", value, "build"])
    assert exit.value.code == 2 and "is not a positive number of seconds" in capsys.readouterr().err


def test_a_known_wrong_solution_that_never_ends_is_named_after_the_cell_timeout(tmp_path, capsys):
    folder = write_lesson(tmp_path, "::::{exercise} f\n:checker: multi_head\n"
                          ":starter: s.py\n:solution: s.py\n:wrong: wrong\n\nWrite it.\n::::\n")
    reference = ROOT / "lessons" / "000-varias-cabezas" / "exercises" / "multi_head"
    (folder / "s.py").write_text((reference / "solution.py").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "wrong").mkdir()
    (folder / "wrong" / "loops.py").write_text("while True:\n    pass\n", encoding="utf-8")
    status, err = build(tmp_path, capsys, "--cell-timeout", "2")
    assert status == 1
    assert "lesson.md:8: exercise 'f': grading wrong/loops.py did not finish in 2 s" in err


def test_a_cell_writing_to_the_processs_real_stdout_does_not_break_the_build(tmp_path, capsys):
    write_lesson(tmp_path, "```{code-cell} ipython3\nimport os, sys\nos.write(1, b'x')\nos.system('echo hi')\n"
                 "sys.__stdout__.write('{not' + ' json\\n')\nsys.__stdout__.flush()\nprint('ke' + 'pt')\n```\n")
    status, err = build(tmp_path, capsys)
    assert status == 0, err
    page = (tmp_path / "_site" / "01-lesson" / "index.html").read_text(encoding="utf-8")
    assert "kept" in page and "{not json" not in page


def test_a_cell_reading_stdin_sees_nothing_and_the_build_goes_on(tmp_path, capsys):
    write_lesson(tmp_path, "```{code-cell} ipython3\nimport sys\nprint(repr(sys.stdin.read()))\n```\n\n"
                 "```{code-cell} ipython3\nprint('second')\n```\n")
    status, err = build(tmp_path, capsys)
    assert status == 0, err
    assert "second" in (tmp_path / "_site" / "01-lesson" / "index.html").read_text(encoding="utf-8")


REQUESTS = [{"type": "init", "label": "cell"}, {"type": "run", "cell": 1, "code": "print(6 * 7)"}]


@pytest.mark.parametrize("damage", ["", "[{\"ok\": tr", "\x00\xff garbage", "{}", "[]", "[1, 2]"])
def test_a_cache_entry_that_cannot_be_read_is_a_miss(tmp_path, damage):
    settings = runner.Settings(ROOT / "py", tmp_path, "library", 60)
    fresh = runner.cached_run(REQUESTS, settings)
    entries = list((tmp_path / "runs").glob("*.json"))
    assert len(entries) == 1
    entries[0].write_bytes(damage.encode("latin-1"))
    again = runner.cached_run(REQUESTS, settings)
    assert again.stuck is None and again.replies == fresh.replies
    assert json.loads(entries[0].read_text(encoding="utf-8")) == fresh.replies  # rewritten whole


def grade(capsys, *args):
    status = cli.main(["grade", *args])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


EXERCISE_ID = "000-varias-cabezas/multi_head"


SOLUTION = (ROOT / "lessons" / "000-varias-cabezas" / "exercises" / "multi_head" / "solution.py").read_bytes()


@pytest.mark.parametrize("content, status, expected", [
    (b"\xff\xfe def multi_head(: \x00", 2, "is not UTF-8 text"),
    (b"import os\nos.write(1, b'x')\nos.system('echo hi')\n" + SOLUTION, 0, "✓"),
    (b"import os\nos._exit(3)\n", 1, "ended the Python process"),
    (b"while True:\n    pass\n", 1, "did not finish in 2 s"),
    (b"x = 1\ny = x / 0\n", 1, "solution.py:2: ZeroDivisionError: division by zero"),
])
def test_grade_answers_every_input_with_a_sentence_never_a_traceback(tmp_path, capsys, content, status, expected):
    path = tmp_path / "solution.py"
    path.write_bytes(content)
    graded, out = grade_with_timeout(capsys, path)
    assert graded == status
    assert expected in out
    assert "Traceback" not in out


def grade_with_timeout(capsys, path):
    status = cli.main(["--cell-timeout", "2", "grade", EXERCISE_ID, str(path)])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


@pytest.mark.parametrize("args, expected", [
    ([EXERCISE_ID, "missing.py"], "no file missing.py"),
    ([EXERCISE_ID, "."], "no file ."),
    (["000-varias-cabezas/nothing", "x.py"], "no exercise '000-varias-cabezas/nothing'"),
    ([EXERCISE_ID], "usage: build.py grade"),
])
def test_grade_refuses_bad_arguments_with_a_sentence_and_status_2(capsys, args, expected):
    status, out = grade(capsys, *args)
    assert status == 2 and expected in out and "Traceback" not in out


def test_a_cell_may_not_import_what_only_the_builds_own_python_holds(tmp_path, capsys):
    # PyYAML is installed beside the build (requirements.txt) but is in no lesson's runtime: refused, as the page would.
    folder = write_lesson(tmp_path, "```{code-cell} ipython3\nimport json\nimport numpy as np\nfrom course.numbers import "
                                    "number\n```\n\n```{code-cell} ipython3\nimport yaml\n```\n")
    status = cli.main(["--lessons", str(folder.parent), "--out", str(tmp_path / "_site"), "build"])
    err = capsys.readouterr().err
    assert status == 1 and "lesson.md:16: cell 2 raised ModuleNotFoundError: The package 'yaml' is not part of " \
                           "this lesson" in err, err
