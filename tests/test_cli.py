"""build.py's own failures (a busy port, an output folder it cannot write) are one sentence, never a traceback."""

import errno
import os
import socket
from pathlib import Path

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


@pytest.mark.parametrize("name, message", [
    ("numpy", "the lesson's name 'numpy' would make its package 'numpy', which would shadow NumPy"),
    ("course", "the lesson's name 'course' would make its package 'course', which would shadow the course library"),
    ("coursebuild", "which would shadow the course's build"),
    ("class", "its package 'class', which is a Python keyword, so no cell could import it"),
    ("enum", "its package 'enum', which would shadow the standard library's module 'enum'"),
    ("a" * 300, "the lesson's name is 300 characters long; keep it to 64 or fewer"),
    ("Softmax", "must be lowercase letters and digits joined by dashes"),
])
def test_new_refuses_a_name_that_would_shadow_a_module_or_cannot_be_a_folder(tmp_path, capsys, name, message):
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    assert cli.main(["--lessons", str(lessons), "new", name]) == 2
    err = capsys.readouterr().err
    assert err.startswith("build.py new: ") and message in err and "Traceback" not in err, err
    assert list(lessons.iterdir()) == []


def test_new_on_a_full_disk_says_so_and_leaves_no_half_lesson(tmp_path, capsys, monkeypatch):
    lessons = tmp_path / "lessons"
    (lessons / "000-earlier").mkdir(parents=True)
    written = []
    real_write = Path.write_text

    def fills_up(path, *args, **kwargs):  # the disk is full after the first file
        if written:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        written.append(path)
        return real_write(path, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", fills_up)
    status = cli.main(["--lessons", str(lessons), "new", "attention-basics"])
    err = capsys.readouterr().err
    assert status == 2 and "cannot be written (No space left on device)" in err and "Traceback" not in err, err
    assert sorted(path.name for path in lessons.iterdir()) == ["000-earlier"]


def test_new_with_a_lessons_path_that_is_a_file_says_so(tmp_path, capsys):
    (tmp_path / "lessons").write_text("not a folder", encoding="utf-8")
    assert cli.main(["--lessons", str(tmp_path / "lessons"), "new", "attention-basics"]) == 2
    err = capsys.readouterr().err
    assert str(tmp_path / "lessons") in err and "cannot be written" in err and "Traceback" not in err, err
