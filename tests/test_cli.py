"""build.py's own failures (a busy port, an output folder it cannot write) are one sentence, never a traceback."""

import socket

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
