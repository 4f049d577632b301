"""build.py's own failures (a busy port, an output folder it cannot write) are one sentence, never a traceback."""

import socket

import pytest

from coursebuild import cli

LESSON = "---\ntitle: T\nlanguage: en\norder: 1\nsummary: S\n---\n\nJust prose.\n"


def lessons(root):
    folder = root / "lessons" / "01-lesson"
    folder.mkdir(parents=True)
    (folder / "lesson.md").write_text(LESSON, encoding="utf-8")
    return root / "lessons"


def test_serve_on_a_port_in_use_says_so_and_how_to_pick_another(tmp_path, capsys):
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    try:
        status = cli.main(["--lessons", str(lessons(tmp_path)), "--out", str(tmp_path / "_site"), "serve",
                           "--no-watch", "--port", str(port)])
    finally:
        busy.close()
    err = capsys.readouterr().err
    assert status == 1
    assert "port {} is in use".format(port) in err and "--port" in err and "Traceback" not in err


def test_an_output_folder_that_cannot_be_written_is_named(tmp_path, capsys):
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    out = tmp_path / "file" / "_site"
    status = cli.main(["--lessons", str(lessons(tmp_path)), "--out", str(out), "build"])
    err = capsys.readouterr().err
    assert status == 1
    assert str(tmp_path / "file") in err and "cannot write the site" in err and "Traceback" not in err


@pytest.mark.parametrize("language", ["en", "es", "uk"])
def test_new_scaffolds_a_lesson_that_builds_and_whose_checker_is_proven(tmp_path, capsys, language):
    lessons = tmp_path / "lessons"
    (lessons / "004-earlier").mkdir(parents=True)
    (lessons / "004-earlier" / "lesson.md").write_text("---\ntitle: E\nlanguage: en\norder: 4\nsummary: S.\n---\n\nText.\n")
    assert cli.main(["--lessons", str(lessons), "new", "softmax-basics", "--language", language]) == 0
    folder = lessons / "005-softmax-basics"
    assert "language: {}\norder: 5\n".format(language) in (folder / "lesson.md").read_text(encoding="utf-8")
    assert (folder / "softmax_basics" / "checkers" / "softmax.py").is_file()
    assert cli.main(["--lessons", str(lessons), "--out", str(tmp_path / "_site"), "build"]) == 0
    page = (tmp_path / "_site" / "005-softmax-basics" / "index.html").read_text(encoding="utf-8")
    assert 'data-module="softmax_basics.explorables.temperature"' in page and 'id="exercise-softmax"' in page
    assert cli.main(["--lessons", str(lessons), "grade", "005-softmax-basics/softmax",
                     str(folder / "exercises" / "softmax" / "wrong" / "forgets_to_normalise.py")]) == 1
    assert cli.main(["--lessons", str(lessons), "new", "softmax-basics"]) == 2
    assert "already has the name 'softmax-basics'" in capsys.readouterr().err
