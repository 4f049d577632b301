"""The build's refusals from issue 53's reliability probe and issue 54's rule on visible solutions: each mistake is
named at its file:line, and the previous site stays as it was."""

import shutil

import pytest
from test_build import GOOD, HEADER, build, write_lesson

from coursebuild import cli, scaffold
from support import ROOT

EXERCISE_DIR = ROOT / "lessons" / "000-varias-cabezas" / "exercises" / "multi_head"
EXERCISE = ("::::{exercise} multi_head\n:checker: multi_head\n:starter: exercises/multi_head/starter.py\n"
            ":solution: exercises/multi_head/solution.py\n:wrong: exercises/multi_head/wrong\n\nWrite it.\n::::\n")


def refused(tmp_path, capsys, text, slug="02-broken"):
    """Build a good lesson, then add `text` as a second one: (status, stderr, whether the old site is untouched)."""
    write_lesson(tmp_path, GOOD)
    assert build(tmp_path, capsys)[0] == 0
    before = (tmp_path / "_site" / "01-lesson" / "index.html").read_text()
    path = write_lesson(tmp_path, text, slug=slug)
    status, err = build(tmp_path, capsys)
    kept = (tmp_path / "_site" / "01-lesson" / "index.html").read_text() == before
    return status, err.replace(str(tmp_path) + "/", ""), kept and not (tmp_path / "_site" / slug).exists(), path


def line_of(path, text):
    return next(number for number, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.mark.parametrize("key, meant", [("packges: [einops==0.8.1]", "packages"),
                                        ("print_answer: appendix", "print_answers")])
def test_an_unknown_front_matter_key_is_refused_with_the_key_it_likely_meant(tmp_path, capsys, key, meant):
    status, err, kept, path = refused(tmp_path, capsys, HEADER.replace("order: 1", "order: 2\n" + key) + "Text.\n")
    written = key.split(":")[0]
    assert status == 1 and kept, err
    assert "lesson.md:{}: the front matter has no key '{}'; did you mean '{}'?".format(
        line_of(path, written), written, meant) in err, err


def test_an_unknown_cell_tag_gets_a_did_you_mean_and_a_quiz_named_twice_in_checks_is_refused(tmp_path, capsys):
    body = ("```{code-cell} ipython3\n:tags: [remove-inptu]\nx = 1\n```\n\n"
            "```{quiz} single\n:id: q-one\nquestion: Q?\noptions:\n  - text: a\n    correct: true\n  - text: b\n"
            "hint: Think.\n```\n\n```{code-cell} ipython3\n:checks: [q-one, q-one]\nprint(1)\n```\n")
    status, err, kept, path = refused(tmp_path, capsys, HEADER.replace("order: 1", "order: 2") + body)
    assert status == 1 and kept, err
    assert "lesson.md:8: unknown cell tag 'remove-inptu'; did you mean 'remove-input'?" in err, err
    assert "lesson.md:{}: ':checks:' names quiz 'q-one' 2 times; name each quiz once".format(
        line_of(path, ":checks:") - 1) in err, err


def test_an_unknown_directive_option_gets_a_did_you_mean(tmp_path, capsys):
    status, err, kept, _ = refused(tmp_path, capsys, HEADER.replace("order: 1", "order: 2")
                                   + "```{code-cell} ipython3\n:tag: [remove-input]\nx = 1\n```\n")
    assert status == 1 and kept and "lesson.md:8: directive 'code-cell' has no option ':tag:'; did you mean " \
                                    "':tags:'?" in err, err


@pytest.mark.parametrize("nested", ["summary: " + "[" * 3000 + "]" * 3000 + "\n",
                                    "summary:\n" + "".join("  " * depth + "- \n" for depth in range(3000))])
def test_front_matter_nested_3000_deep_is_a_file_line_message_not_a_traceback(tmp_path, capsys, nested):
    front = HEADER.replace("order: 1", "order: 2").replace("summary: S\n", nested)
    status, err, kept, _ = refused(tmp_path, capsys, front + "Text.\n")
    assert status == 1 and kept, err
    assert "02-broken/lesson.md:" in err and "nested too deeply for YAML to read" in err, err
    assert "Traceback" not in err and "RecursionError" not in err


def test_a_cell_option_nested_3000_deep_is_a_file_line_message(tmp_path, capsys):
    status, err, kept, _ = refused(tmp_path, capsys, HEADER.replace("order: 1", "order: 2")
                                   + "```{code-cell} ipython3\n:tags: " + "[" * 3000 + "]" * 3000 + "\nx = 1\n```\n")
    assert status == 1 and kept and "lesson.md:9: option ':tags:' has a value that is not valid YAML" in err, err
    assert "Traceback" not in err


def test_an_empty_lesson_name_is_refused_instead_of_building_the_whole_course(tmp_path, capsys):
    write_lesson(tmp_path, GOOD)
    status = cli.main(["--lessons", str(tmp_path / "lessons"), "--out", str(tmp_path / "_site"), "build",
                       "--lesson", ""])
    err = capsys.readouterr().err
    assert status == 2 and "--lesson: an empty name names no lesson" in err and "01-lesson" in err, err
    assert not (tmp_path / "_site").exists()


@pytest.mark.parametrize("name", ["yaml", "pytest", "numpy", "packaging", "markdown-it", "support"])
def test_new_refuses_a_name_that_would_shadow_a_module_the_build_or_the_tests_import(tmp_path, capsys, name):
    assert cli.main(["--lessons", str(tmp_path / "lessons"), "new", name]) == 2
    assert "would make its package '{}'".format(name.replace("-", "_")) in capsys.readouterr().err
    assert not (tmp_path / "lessons").exists() or not any((tmp_path / "lessons").iterdir())


def test_the_modules_new_refuses_are_computed_from_the_virtualenv_py_and_tests():
    modules = scaffold.imported_modules()
    assert {"yaml", "pytest", "_pytest", "numpy", "packaging", "markdown_it", "mdit_py_plugins", "support"} <= set(modules)
    assert "softmax_basics" not in modules


def test_new_with_an_ordinary_name_still_makes_a_lesson_that_builds(tmp_path, capsys):
    assert cli.main(["--lessons", str(tmp_path / "lessons"), "new", "softmax-basics"]) == 0
    status, err = build(tmp_path, capsys)
    assert status == 0, err
    assert (tmp_path / "_site" / "000-softmax-basics" / "index.html").exists()


def test_import_micropip_without_packages_says_what_a_page_ships(tmp_path, capsys):
    status, err, kept, _ = refused(tmp_path, capsys, HEADER.replace("order: 1", "order: 2")
                                   + "```{code-cell} ipython3\nimport micropip\n```\n")
    assert status == 1 and kept, err
    assert "lesson.md:9: cell 1 imports micropip, which this lesson's page does not ship" in err, err
    assert "standard library, NumPy" in err and "add it under 'packages:'" not in err


def exercise_lesson(tmp_path, cells_before="", cells_after=""):
    """A lesson with lesson 000's multi_head exercise (its checker, reference and known-wrong solutions), with
    `cells_before` and `cells_after` it."""
    folder = write_lesson(tmp_path, HEADER.replace("order: 1", "order: 2") + cells_before + EXERCISE + cells_after
                          + "\n:::{answer} Why?\nBecause.\n:::\n", slug="02-broken").parent
    shutil.copytree(EXERCISE_DIR, folder / "exercises" / "multi_head")
    from support import give_checker
    give_checker(folder)
    return folder / "lesson.md"


def test_a_hidden_cell_that_reads_an_exercise_s_function_is_refused_naming_the_cell_and_the_name(tmp_path, capsys):
    write_lesson(tmp_path, GOOD)
    assert build(tmp_path, capsys)[0] == 0
    before = (tmp_path / "_site" / "01-lesson" / "index.html").read_text()
    path = exercise_lesson(tmp_path, cells_after=(
        "\n```{code-cell} ipython3\nmulti_head = [1, 2]\n```\n\n"
        "```{code-cell} ipython3\n:tags: [remove-cell]\nfrom course.glue import glue\nglue('n', len(multi_head))\n```\n"))
    status, err = build(tmp_path, capsys)
    assert status == 1, err
    assert "lesson.md:{}: hidden cell 1.1 reads 'multi_head', the function that exercise 'multi_head'".format(
        line_of(path, "glue('n'")) in err, err
    assert (tmp_path / "_site" / "01-lesson" / "index.html").read_text() == before


def test_a_hidden_cell_that_binds_the_name_itself_is_not_refused(tmp_path, capsys):
    exercise_lesson(tmp_path, cells_after=("\n```{code-cell} ipython3\n:tags: [remove-cell]\nmulti_head = [1, 2]\n"
                                           "print(len(multi_head))\n```\n"))
    write_lesson(tmp_path, GOOD)
    status, err = build(tmp_path, capsys)
    assert status == 0, err


def renamed_solution():
    """The reference, its names changed: still the solution."""
    body = (EXERCISE_DIR / "solution.py").read_text()
    for old, new in (("def multi_head(", "def several_heads("), ("salidas", "outs"), ("bloque", "cols")):
        body = body.replace(old, new)
    return body.strip()


def test_a_visible_cell_before_an_exercise_that_holds_its_solution_is_refused_at_its_line(tmp_path, capsys):
    write_lesson(tmp_path, GOOD)
    assert build(tmp_path, capsys)[0] == 0
    before = (tmp_path / "_site" / "01-lesson" / "index.html").read_text()
    path = exercise_lesson(tmp_path, cells_before="```{code-cell} ipython3\n" + renamed_solution() + "\n```\n\n")
    status, err = build(tmp_path, capsys)
    assert status == 1, err
    line = line_of(path, "def several_heads(")
    assert "lesson.md:{}: visible cell 1 holds most of the reference solution's 'multi_head'".format(line) in err, err
    assert (tmp_path / "_site" / "01-lesson" / "index.html").read_text() == before


def test_a_find_the_bug_exercise_may_show_the_code_its_starter_hands_out(tmp_path, capsys):
    buggy = renamed_solution().replace("axis=1) @ Wo", "axis=0) @ Wo")  # the code to fix, shown and handed out
    path = exercise_lesson(tmp_path, cells_before="```{code-cell} ipython3\n" + buggy + "\n```\n\n")
    (path.parent / "exercises" / "multi_head" / "starter.py").write_text(
        buggy.replace("def several_heads(", "def multi_head(") + "\n")
    write_lesson(tmp_path, GOOD)
    status, err = build(tmp_path, capsys)
    assert status == 0, err


def test_a_visible_cell_that_defines_the_exercise_s_function_before_it_is_refused(tmp_path, capsys):
    path = exercise_lesson(tmp_path, cells_before="```{code-cell} ipython3\ndef multi_head(X):\n    return X\n```\n\n")
    write_lesson(tmp_path, GOOD)
    status, err = build(tmp_path, capsys)
    assert status == 1
    assert "02-broken/lesson.md:{}: visible cell 1 defines 'multi_head'".format(line_of(path, "def multi_head")) in err


def test_the_course_s_hidden_cells_read_no_exercise_s_function():
    import importlib

    from coursebuild.exercise_names import hidden_cell_errors
    from coursebuild.lesson import read_lesson
    for path in sorted((ROOT / "lessons").glob("*/lesson*.md")):
        lesson = read_lesson(path)[0]
        for exercise in lesson.exercises:
            function = importlib.import_module(exercise.checker).FUNCTION
            exercise.function = function[lesson.language] if isinstance(function, dict) else function
        assert hidden_cell_errors(lesson) == [], path


@pytest.mark.parametrize("link, message", [
    ("[gone](../01-lesson/fr/)", "the link '../01-lesson/fr/' leads to '01-lesson/fr/', which is no page of the course"),
    ("[gone](../01-lesson/#cell-nothing)", "names '#cell-nothing', which lessons/01-lesson/lesson.md does not have"),
    ("[here](#quiz-missing)", "names '#quiz-missing', which lessons/02-broken/lesson.md does not have"),
    ("![a figure](figure.png)", "the image 'figure.png' would not be shipped with the page"),
])
def test_a_link_to_a_missing_lesson_or_anchor_and_an_image_are_refused_at_their_line(tmp_path, capsys, link, message):
    status, err, kept, path = refused(tmp_path, capsys, HEADER.replace("order: 1", "order: 2") + "Intro.\n\nSee "
                                      + link + ".\n")
    assert status == 1 and kept, err
    assert "lessons/02-broken/lesson.md:{}: ".format(line_of(path, link)) in err and message in err, err


def test_a_link_to_a_lesson_folder_the_course_lacks_is_a_warning_at_its_line(tmp_path, capsys):
    # The suite builds one lesson alone, which keeps its links to the others; a typo in a folder reads the same.
    path = write_lesson(tmp_path, GOOD.replace("Text with", "See [gone](../09-nowhere/). Text with"))
    status = cli.main(["--lessons", str(tmp_path / "lessons"), "--out", str(tmp_path / "_site"), "build"])
    out = capsys.readouterr().out.replace(str(tmp_path) + "/", "")
    assert status == 0, out
    assert "WARNING: {}:{}: the link '../09-nowhere/' leads to a lesson folder".format(
        "lessons/01-lesson/lesson.md", line_of(path, "[gone]")) in out, out


def test_links_to_an_existing_lesson_and_its_anchors_build(tmp_path, capsys):
    write_lesson(tmp_path, GOOD.replace("Text with", "See [it](../02-other/#cell-named) and [home](../). Text with"))
    write_lesson(tmp_path, HEADER.replace("order: 1", "order: 2") + "```{code-cell} ipython3\n:id: named\nx = 1\n```\n",
                 slug="02-other")
    status, err = build(tmp_path, capsys)
    assert status == 0, err
