"""The build's way into Python (coursebuild.runner): timeouts, a channel cell code cannot corrupt, the cache."""

from coursebuild import cli
from support import ROOT

HEADER = "---\ntitle: T\nlanguage: en\norder: 1\nsummary: S\n---\n\n"


def write_lesson(root, body):
    folder = root / "lessons" / "01-lesson"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "lesson.md").write_text(HEADER + body, encoding="utf-8")
    return folder


def build(root, capsys, *flags):
    status = cli.main(["--lessons", str(root / "lessons"), "--out", str(root / "_site"), *flags, "build"])
    return status, capsys.readouterr().err


def test_a_cell_that_never_ends_fails_the_build_at_its_own_line_after_the_cell_timeout(tmp_path, capsys):
    write_lesson(tmp_path, "```{code-cell} ipython3\nx = 1\n```\n\n```{code-cell} ipython3\nwhile True:\n    pass\n```\n")
    status, err = build(tmp_path, capsys, "--cell-timeout", "2")
    assert status == 1
    assert "lesson.md:12: cell 2 did not finish in 2 s" in err and "--cell-timeout" in err
    assert "Traceback" not in err


def test_the_cell_timeout_defaults_to_a_minute_and_is_documented_in_help(capsys):
    assert cli.parser().parse_args(["build"]).cell_timeout == 60
    assert "--cell-timeout" in cli.parser().format_help()


def test_a_known_wrong_solution_that_never_ends_is_named_after_the_cell_timeout(tmp_path, capsys):
    folder = write_lesson(tmp_path, "::::{exercise} f\n:checker: course.checkers.multi_head\n"
                          ":starter: s.py\n:solution: s.py\n:wrong: wrong\n\nWrite it.\n::::\n")
    reference = ROOT / "lessons" / "000-varias-cabezas" / "exercises" / "multi_head"
    (folder / "s.py").write_text((reference / "solution.py").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "wrong").mkdir()
    (folder / "wrong" / "loops.py").write_text("while True:\n    pass\n", encoding="utf-8")
    status, err = build(tmp_path, capsys, "--cell-timeout", "2")
    assert status == 1
    assert "lesson.md:8: exercise 'f': grading wrong/loops.py did not finish in 2 s" in err
