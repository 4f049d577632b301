"""One set of known-wrong solutions serves every edition: an edition's `:wrong:` names lesson.md's folder, and the
build grades each file under the function name the edition's checker asks for (coursebuild.blocks.exercise)."""

import pytest

from course import numbers
from course.exercise import grade
from coursebuild import cli
from coursebuild.blocks.exercise import NameClash, as_graded, renamed
from coursebuild.lesson import read_lesson

CHECKER = '''\
"""doble(x): twice x, asked for under each edition's name."""

from course.numbers import current_language

FUNCTION = {"es": "doble", "en": "double"}
MESSAGES = {
    "es": {"code_raised": "Tu código lanzó {error}.", "no_function": "Se esperaba una función llamada {name}.",
           "checker_failed": "El comprobador falló: {error}.", "right": "Correcto para x={x}.",
           "wrong": "Con x={x} se esperaba {expected}, pero devolvió {actual}: multiplica por 2, no sumes 1."},
    "en": {"code_raised": "Your code raised {error}.", "no_function": "A function called {name} was expected.",
           "checker_failed": "The checker failed: {error}.", "right": "Right for x={x}.",
           "wrong": "For x={x} {expected} was expected, but it returned {actual}: multiply by 2, do not add 1."},
}


def check(function):
    say = MESSAGES[current_language()]
    results = []
    for x in (1, 3, 5):
        actual = function(x)
        results.append({"ok": actual == 2 * x, "message": say["right" if actual == 2 * x else "wrong"].format(
            x=x, expected=2 * x, actual=actual)})
    return results
'''

EXERCISE = """\
::::{{exercise}} doble
:checker: doble
:starter: {folder}/doble/starter.py
:solution: {folder}/doble/solution.py
:wrong: {wrong}

{prompt}
::::
"""
PRIMARY = "---\ntitle: Doble\nlanguage: es\norder: 1\nsummary: Doblar.\n---\n\nTexto.\n\n" + EXERCISE
EDITION = "---\ntitle: Double\nlanguage: en\nsummary: Doubling.\n---\n\nText.\n\n" + EXERCISE
# lesson.md's known mistake: a helper of its own, and the function under the Spanish name. Its comments are
# Spanish: a known-wrong solution is never shown to a learner, so no edition needs it in its own words.
ADDS_ONE = '''\
"""Suma uno en vez de doblar (MARCA_DEL_ERROR)."""


def sumar_uno(x):  # la ayuda conserva su nombre
    return x + 1


def doble(x):
    return sumar_uno(x)
'''
EDITION_WRONG_LINE = 13  # lesson.en.md's ':wrong:': after its 8-line head, the fence and three options


def write_course(root, wrong="exercises/doble/wrong", mistake=ADDS_ONE):
    """A lesson whose English edition points :wrong: at `wrong`; lesson.md's own folder holds `mistake`."""
    folder = root / "lessons" / "01-doble-edicion"
    files = {
        "lesson.md": PRIMARY.format(folder="exercises", wrong="exercises/doble/wrong", prompt="Escribe doble."),
        "lesson.en.md": EDITION.format(folder="exercises.en", wrong=wrong, prompt="Write double."),
        "exercises/doble/starter.py": "def doble(x):\n    pass\n",
        "exercises/doble/solution.py": "def doble(x):\n    return 2 * x\n",
        "exercises/doble/wrong/adds_one.py": mistake,
        "exercises.en/doble/starter.py": "def double(x):\n    pass\n",
        "exercises.en/doble/solution.py": "def double(x):\n    return 2 * x\n",
        "doble_edicion/__init__.py": "",
        "doble_edicion/checkers/__init__.py": "",
        "doble_edicion/checkers/doble.py": CHECKER,
    }
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    assert (folder / "lesson.en.md").read_text().splitlines()[EDITION_WRONG_LINE - 1].startswith(":wrong: ")
    return folder


def build(root, capsys):
    status = cli.main(["--lessons", str(root / "lessons"), "--out", str(root / "_site"), "build"])
    return status, capsys.readouterr().err


def test_a_function_is_renamed_token_by_token_and_its_helpers_attributes_and_text_keep_theirs():
    code = ("def doble(x):  # doble\n    return ayuda(x) + doble.calls + obj.doble\n\n\n"
            "def ayuda(x):\n    return 'doble'\n")
    assert renamed(code, "doble", "double") == ("def double(x):  # doble\n    return ayuda(x) + double.calls + "
                                                "obj.doble\n\n\ndef ayuda(x):\n    return 'doble'\n")


def test_only_a_file_that_defines_another_editions_name_and_not_this_ones_is_renamed():
    names = {"doble", "double"}
    assert as_graded(ADDS_ONE, "double", names) == ADDS_ONE.replace("def doble(", "def double(")
    assert as_graded(ADDS_ONE, "doble", names) == ADDS_ONE  # lesson.md's own name: as written
    assert as_graded("def other(x):\n    pass\n", "double", names) == "def other(x):\n    pass\n"  # its mistake
    assert as_graded("def doble(:\n", "double", names) == "def doble(:\n"  # a syntax error is graded as it is


def test_a_rename_that_would_clash_names_the_line_that_already_uses_the_name():
    with pytest.raises(NameClash) as clash:
        renamed("def doble(x):\n    double = 2\n    return double * x\n", "doble", "double")
    assert clash.value.line == 2 and "already uses the name double" in str(clash.value)
    with pytest.raises(NameClash, match="doble and double, the names of several editions"):
        as_graded("def doble(x):\n    pass\n\n\ndef double(x):\n    pass\n", "duplo", {"doble", "double", "duplo"})


def test_the_english_page_grades_lesson_mds_mistake_under_its_english_name_with_an_english_sentence(tmp_path,
                                                                                                   monkeypatch):
    folder = write_course(tmp_path)
    lesson, errors = read_lesson(folder / "lesson.en.md")
    assert errors == []
    code = lesson.exercises[0].wrong["adds_one.py"]
    assert "def double(x):\n    return sumar_uno(x)" in code and "def sumar_uno(x):" in code
    assert code.count("\n") == ADDS_ONE.count("\n")  # the lines an error names stay where they were
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(numbers, "_LANGUAGE", ["en"])
    result = grade(code, "doble_edicion.checkers.doble")
    assert not result["passed"] and result["function"] == "double"
    assert result["results"][-1]["message"] == "For x=5 10 was expected, but it returned 6: multiply by 2, do not add 1."


def test_the_build_proves_the_checker_of_every_edition_on_lesson_mds_mistakes_and_never_ships_them(tmp_path, capsys):
    write_course(tmp_path)
    status, err = build(tmp_path, capsys)
    assert status == 0, err
    shipped = [path for path in (tmp_path / "_site").rglob("*") if path.is_file()]
    assert any(path.name == "index.html" and path.parent.name == "en" for path in shipped)
    assert not [path for path in shipped if b"MARCA_DEL_ERROR" in path.read_bytes() or b"sumar_uno" in path.read_bytes()]


def test_a_shared_mistake_that_the_english_checker_lets_through_fails_the_english_page_at_its_line(tmp_path, capsys):
    # Passing under the English name proves the function was found: unrenamed, it would fail as "no function".
    write_course(tmp_path, mistake="def doble(x):\n    return 2 * x\n")
    status, err = build(tmp_path, capsys)
    assert status == 1
    assert "lesson.en.md:9: exercise 'doble': the known-wrong solution wrong/adds_one.py passes the checker" in err, err


def test_a_wrong_folder_an_edition_names_that_does_not_exist_is_an_error_at_its_line(tmp_path, capsys):
    write_course(tmp_path, wrong="exercises/doubel/wrong")
    status, err = build(tmp_path, capsys)
    assert status == 1
    assert ("lesson.en.md:{}: :wrong: names exercises/doubel/wrong, which does not exist; name the folder that holds "
            "the known-wrong solutions (an edition names lesson.md's: ':wrong: exercises/doble/wrong')".format(
                EDITION_WRONG_LINE)) in err, err


def test_a_checker_whose_function_names_are_not_written_out_is_an_error_at_its_line(tmp_path):
    folder = write_course(tmp_path)
    checker = folder / "doble_edicion" / "checkers" / "doble.py"
    checker.write_text(checker.read_text().replace('FUNCTION = {"es": "doble", "en": "double"}',
                                                   'FUNCTION = dict(es="doble", en="double")'))
    _, errors = read_lesson(folder / "lesson.en.md")
    assert [(str(error.path).endswith("checkers/doble.py"), error.line) for error in errors] == [(True, 5)]
    assert "FUNCTION must be written out" in errors[0].message
