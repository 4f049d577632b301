"""The build: parsing, rendering, errors with file:line, atomic output, cached execution."""

import re
import textwrap

import pytest

from course.numbers import number
from coursebuild import cli
from support import ROOT, give_checker

# The front matter of a one-lesson course's lesson, in English: what the tests here and test_saved_work.py build.
FRONT_MATTER = """\
---
title: A lesson
language: en
order: 1
summary: A summary.
---
"""
GOOD = FRONT_MATTER + """
Text with $x^2$ and a glued value {glue}`answer`.

```{code-cell} ipython3
from course.glue import glue
glue("answer", 1048576)
print("hello <b>")
```

:::{answer} Why?
Because $a + b$.
:::
"""


def write_lesson(root, text, slug="01-lesson"):
    folder = root / "lessons" / slug
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "lesson.md").write_text(textwrap.dedent(text), encoding="utf-8")
    if ":checker: multi_head" in text:
        give_checker(folder)
    return folder / "lesson.md"


def build(root, capsys=None):
    status = cli.main(["--lessons", str(root / "lessons"), "--out", str(root / "_site"), "build"])
    captured = capsys.readouterr() if capsys else None
    return status, (captured.err if captured else "")


def assert_fails_at_line(tmp_path, capsys, text, line, message):
    """The build of the one lesson `text` fails, with an error at line `line` of its lesson.md that says `message`."""
    write_lesson(tmp_path, text)
    status, err = build(tmp_path, capsys)
    assert status == 1 and "lesson.md:{}: ".format(line) in err and message in err, err


@pytest.fixture
def built(tmp_path, capsys):
    write_lesson(tmp_path, GOOD)
    status, _ = build(tmp_path, capsys)
    assert status == 0
    return tmp_path


def test_a_lesson_renders_prose_math_code_and_build_time_output(built):
    page = (built / "_site" / "01-lesson" / "index.html").read_text()
    assert "<math" in page and "$x^2$" not in page
    assert '<span class="glued" data-glue="answer">1,048,576</span>' in page
    assert "hello &lt;b&gt;" in page  # printed HTML is escaped
    assert '<span class="kn">from</span>' in page  # highlighted at build time
    assert "<details class=\"answer\">" in page
    assert "Content-Security-Policy" in page and "unsafe-eval'" not in page.replace("wasm-unsafe-eval", "")


def test_the_index_lists_lessons_with_title_language_and_summary(built):
    index = (built / "_site" / "index.html").read_text()
    assert 'href="01-lesson/index.html">A lesson</a>' in index
    assert "English" in index and "A summary." in index


def test_the_site_ships_the_runtime_and_the_course_library(built):
    site = built / "_site"
    assert (site / "assets" / "page.js").exists() and (site / "assets" / "editor.js").exists()
    assert "course/runner.py" in (site / "assets" / "course-lib.json").read_text()
    assert any((site / "runtime").glob("pyodide.*"))


def test_every_url_in_a_page_is_relative(built):
    page = (built / "_site" / "01-lesson" / "index.html").read_text()
    for url in re.findall(r'(?:href|src)="([^"]+)"', page):
        assert not url.startswith("/"), url


MALFORMED = {
    "unknown directive": ("```{quizz}\nx\n```\n", 8,
                          "unknown directive 'quizz'; did you mean 'quiz'? (known: answer, code-cell"),
    "unclosed fence": ("Some text.\n\n```{code-cell} ipython3\nprint(1)\n", 10, "never closed"),
    "cell raising at build": ("```{code-cell} ipython3\nx = 1\ny = x / 0\n```\n", 10,
                              "cell 1 raised ZeroDivisionError: division by zero"),
    "a progress value the page cannot read": (
        "```{code-cell} ipython3\nx = 1\n```\n\n```{code-cell} ipython3\nfrom course import runner\n"
        "runner.progress({'loss': object()})\n```\n", 14, "cell 2 raised TypeError: a progress value cannot be shown"),
    "raises tag without error": ("```{code-cell} ipython3\n:tags: [raises-exception]\nx = 1\n```\n", 8,
                                 "tagged raises-exception but ran without error"),
    "unknown glue": ("Quote {glue}`nothing`.\n", 8, "{glue}`nothing` names no value"),
    "bad math": ("Broken $\\frac{1$ formula.\n", 8, "unbalanced braces"),
    "unknown glue in an answer's title": (":::{answer} Why {glue}`nothing`?\nBody.\n:::\n", 8,
                                           "{glue}`nothing` names no value"),
    "checks an unknown quiz": ("```{code-cell} ipython3\n:checks: [nowhere]\nx = 1\n```\n", 8,
                               "':checks:' names quiz 'nowhere', which the lesson does not have"),
    "a removed output also folded": ("```{code-cell} ipython3\n:tags: [remove-output, hide-output]\nx = 1\n```\n", 8,
                                     "cell tags 'remove-output' and 'hide-output' contradict each other"),
    "a removed cell with its code folded": ("```{code-cell} ipython3\n:tags: [hide-input, remove-cell]\nx = 1\n```\n",
                                            8, "cell tags 'remove-cell' and 'hide-input' contradict each other"),
    "checks an empty list": ("```{code-cell} ipython3\n:checks: []\nx = 1\n```\n", 8,
                             "':checks: []' names no quiz"),
    "checks a bare string": ("```{code-cell} ipython3\n:checks: q1\nx = 1\n```\n", 8,
                             "':checks:' must list quiz ids in brackets"),
    "an id written twice": ("```{code-cell} ipython3\n:id: first\n:id: second\nx = 1\n```\n", 10,
                            "option ':id:' is written twice (first at line 9); keep one"),
}
HEADER = "---\ntitle: T\nlanguage: en\norder: 1\nsummary: S\n---\n\n"


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_lesson_names_file_and_line_and_keeps_the_old_site(tmp_path, capsys, case):
    body, line, message = MALFORMED[case]
    write_lesson(tmp_path, GOOD)
    assert build(tmp_path, capsys)[0] == 0
    before = (tmp_path / "_site" / "01-lesson" / "index.html").read_text()
    path = write_lesson(tmp_path, HEADER.replace("order: 1", "order: 2") + body, slug="02-broken")
    status, err = build(tmp_path, capsys)
    assert status == 1
    assert "{}:{}: ".format(path.relative_to(path.parents[2]).as_posix(), line) in err.replace(str(tmp_path) + "/", "")
    assert message in err
    assert (tmp_path / "_site" / "01-lesson" / "index.html").read_text() == before
    assert not (tmp_path / "_site" / "02-broken").exists()


@pytest.mark.parametrize("front, line, message", [
    ("---\ntitle: [unclosed\nlanguage: en\n---\n", 2, "not valid YAML"),
    ("---\ntitle: T\nlanguage: fr\norder: 1\nsummary: S\n---\n", 3, "language 'fr' is not supported"),
    ("---\ntitle: T\nlanguage: en\nsummary: S\n---\n", 1, "lacks 'order'"),
    ("No front matter.\n", 1, "no front matter"),
])
def test_bad_front_matter_is_reported_at_its_line(tmp_path, capsys, front, line, message):
    write_lesson(tmp_path, front)
    status, err = build(tmp_path, capsys)
    assert status == 1
    assert "lesson.md:{}: ".format(line) in err and message in err
    assert not (tmp_path / "_site").exists()


def test_all_errors_of_a_build_are_reported_at_once(tmp_path, capsys):
    write_lesson(tmp_path, HEADER + "```{quizz}\n```\n\n```{nope}\n```\n")
    write_lesson(tmp_path, "no front matter\n", slug="02-other")
    status, err = build(tmp_path, capsys)
    assert status == 1
    assert "'quizz'" in err and "'nope'" in err and "no front matter" in err
    assert "3 error(s)" in err


def test_a_prose_edit_reuses_the_cached_cell_outputs(tmp_path, capsys, monkeypatch):
    from coursebuild import runner
    path = write_lesson(tmp_path, GOOD)
    assert build(tmp_path, capsys)[0] == 0
    monkeypatch.setattr(runner, "run", lambda *args: pytest.fail("cells ran again after a prose edit"))
    path.write_text(path.read_text().replace("Text with", "Prose with"))
    assert build(tmp_path, capsys)[0] == 0
    assert "Prose with" in (tmp_path / "_site" / "01-lesson" / "index.html").read_text()


def test_cells_write_numbers_in_the_lesson_language_without_being_told(tmp_path, capsys):
    write_lesson(tmp_path, GOOD.replace("language: en", "language: es").replace(
        'print("hello <b>")', 'from course.numbers import number\nprint(number([1048576, 0.5], ".2f"))'))
    assert build(tmp_path, capsys)[0] == 0
    page = (tmp_path / "_site" / "01-lesson" / "index.html").read_text()
    assert "[1.048.576,00; 0,50]" in page


def test_glue_writes_lists_and_vectors_in_the_lesson_language_with_a_format(tmp_path, capsys):
    write_lesson(tmp_path, GOOD.replace("language: en", "language: uk").replace(
        "{glue}`answer`", "{glue}`q:.2f`, {glue}`m:.1f` and {glue}`sizes`").replace(
        'glue("answer", 1048576)', 'import numpy as np\nglue("q", np.array([0.5, 0.5, 0.8]))\n'
        'glue("m", np.eye(2))\nglue("sizes", [10000, 64])'))
    assert build(tmp_path, capsys)[0] == 0
    page = (tmp_path / "_site" / "01-lesson" / "index.html").read_text()
    assert 'data-glue="q">[0,50; 0,50; 0,80]</span>' in page
    assert 'data-glue="m">[[1,0; 0,0]; [0,0; 1,0]]</span>' in page
    assert 'data-glue="sizes">[10\u00a0000; 64]</span>' in page


def test_a_format_that_does_not_fit_a_glued_list_is_an_error_at_its_line(tmp_path, capsys):
    path = write_lesson(tmp_path, GOOD.replace("{glue}`answer`", "{glue}`words:.2f`").replace(
        'glue("answer", 1048576)', 'glue("words", ["a", 0.5])'))
    line = next(number for number, text in enumerate(path.read_text().splitlines(), 1) if "words:.2f" in text)
    status, err = build(tmp_path, capsys)
    assert status == 1 and "lesson.md:{}: {{glue}}`words:.2f`: the format '.2f' does not fit".format(line) in err, err


def test_help_describes_the_commands(capsys):
    with pytest.raises(SystemExit) as exit:
        cli.main(["--help"])
    assert exit.value.code == 0
    out = capsys.readouterr().out
    assert "serve" in out and "--pyodide-dir" in out and "--runtime" in out


QUIZ_ERRORS = {
    "no correct option": ("```{quiz} single\nquestion: Q?\noptions:\n  - text: a\n  - text: b\n"
                          "explanation: E.\n```\n", 8, "no option is marked 'correct: true'"),
    "numeric without tolerance": ("```{quiz} numeric\nquestion: Q?\nanswer: 3\nexplanation: E.\n```\n", 8,
                                  "needs 'tolerance:'"),
    "unknown kind": ("```{quiz} essay\nquestion: Q?\nexplanation: E.\n```\n", 8, "unknown quiz kind 'essay'"),
    "two right answers in a single choice": (
        "```{quiz} single\nquestion: Q?\noptions:\n  - text: a\n    correct: true\n  - text: b\n    correct: true\n"
        "explanation: E.\n```\n", 8, "has 2 correct options"),
    "'yes' for correct": (
        "```{quiz} single\nquestion: Q?\noptions:\n  - text: a\n    correct: yes\n  - text: b\n"
        "explanation: E.\n```\n", 12, "'correct:' of option 1 must be true or false"),
}


@pytest.mark.parametrize("case", sorted(QUIZ_ERRORS))
def test_a_malformed_quiz_is_reported_at_its_line(tmp_path, capsys, case):
    body, line, message = QUIZ_ERRORS[case]
    assert_fails_at_line(tmp_path, capsys, HEADER + body, line, message)


@pytest.mark.parametrize("slug, char", [("01-what?", "?"), ("01-part#2", "#"), ("01-a:b", ":"), ("01-100%", "%")])
def test_a_lesson_folder_a_link_cannot_hold_is_refused_and_named(tmp_path, capsys, slug, char):
    write_lesson(tmp_path, GOOD, slug=slug)
    status, err = build(tmp_path, capsys)
    assert status == 1 and "lessons/{}/lesson.md: the lesson folder '{}' has '{}'".format(slug, slug, char) in err
    assert not (tmp_path / "_site").exists()


def test_a_lesson_md_that_is_a_folder_is_reported_as_a_folder(tmp_path, capsys):
    write_lesson(tmp_path, GOOD)
    (tmp_path / "lessons" / "02-folder" / "lesson.md").mkdir(parents=True)
    status, err = build(tmp_path, capsys)
    assert status == 1 and "02-folder/lesson.md: this is a folder, not a file" in err, err


def test_an_order_of_true_is_refused(tmp_path, capsys):
    write_lesson(tmp_path, GOOD.replace("order: 1", "order: true"))
    status, err = build(tmp_path, capsys)
    assert status == 1 and "lesson.md:4: order must be a whole number" in err, err


def write_exercise(root, solution, wrong):
    folder = write_lesson(root, HEADER + "::::{exercise} f\n:checker: multi_head\n"
                          ":starter: s.py\n:solution: ok.py\n:wrong: wrong\n\nWrite it.\n::::\n").parent
    (folder / "s.py").write_text("def multi_head(X, Wq, Wk, Wv, Wo, h):\n    pass\n")
    (folder / "ok.py").write_text(solution)
    (folder / "wrong").mkdir()
    (folder / "wrong" / "w.py").write_text(wrong)


def test_the_build_refuses_a_checker_that_lets_a_known_mistake_through(tmp_path, capsys):
    reference = (ROOT / "lessons/000-varias-cabezas/exercises/multi_head/solution.py").read_text()
    write_exercise(tmp_path, reference, reference)
    status, err = build(tmp_path, capsys)
    assert status == 1 and "lesson.md:8: exercise 'f': the known-wrong solution wrong/w.py passes" in err


@pytest.mark.parametrize("solution, line", [
    ("import numpy as np\n\n\ndef multi_head(X, Wq, Wk, Wv, Wo, h):\n    return None\n", 4),  # its def
    ("import numpy as np\nscale = 1 / 0\n\ndef multi_head(X, Wq, Wk, Wv, Wo, h):\n    return None\n", 2),  # raised
])
def test_the_build_refuses_a_reference_solution_that_fails_at_its_line_in_the_solution_file(tmp_path, capsys,
                                                                                           solution, line):
    write_exercise(tmp_path, solution, "x = 1")
    status, err = build(tmp_path, capsys)
    assert status == 1
    assert "01-lesson/ok.py:{}: exercise 'f' (".format(line) in err and "01-lesson/lesson.md:8)" in err, err
    assert "the reference solution fails its checker" in err


def test_grade_exits_0_for_a_pass_1_for_a_fail_and_2_for_a_usage_error(capsys, tmp_path):
    folder = ROOT / "lessons/000-varias-cabezas/exercises/multi_head"
    assert cli.main(["grade", "--list"]) == 0
    assert "000-varias-cabezas/multi_head" in capsys.readouterr().out
    assert cli.main(["grade", "000-varias-cabezas/multi_head", str(folder / "solution.py")]) == 0
    assert "Superado" in capsys.readouterr().out
    assert cli.main(["grade", "000-varias-cabezas/multi_head", str(folder / "wrong" / "forgets_wo.py")]) == 1
    assert "olvidaste multiplicar la concatenación por Wo" in capsys.readouterr().out
    assert cli.main(["grade", "000-varias-cabezas/nothing", str(folder / "solution.py")]) == 2
    assert cli.main(["grade", "000-varias-cabezas/multi_head"]) == 2


def test_grade_reads_a_file_with_a_byte_order_mark_notes_cut_output_and_says_why_an_interrupt_failed(capsys,
                                                                                                     tmp_path):
    solution = (ROOT / "lessons/000-varias-cabezas/exercises/multi_head/solution.py").read_text(encoding="utf-8")
    marked = tmp_path / "marked.py"
    marked.write_bytes(b"\xef\xbb\xbf" + solution.encode("utf-8"))
    assert cli.main(["grade", "000-varias-cabezas/multi_head", str(marked)]) == 0
    capsys.readouterr()
    chatty = tmp_path / "chatty.py"
    chatty.write_text("for n in range(3000):\n    print(n)\n" + solution, encoding="utf-8")
    assert cli.main(["grade", "000-varias-cabezas/multi_head", str(chatty)]) == 0
    assert "… no se muestran 2000 líneas más." in capsys.readouterr().out
    interrupted = tmp_path / "interrupted.py"
    interrupted.write_text("raise KeyboardInterrupt\n", encoding="utf-8")
    assert cli.main(["grade", "000-varias-cabezas/multi_head", str(interrupted)]) == 1
    assert "{}: the solution raised KeyboardInterrupt".format(interrupted) in capsys.readouterr().out


def test_only_a_formula_followed_by_punctuation_is_kept_with_it():
    from coursebuild.render import keep_punctuation_with_math
    math = '<span class="math inline"><math display="inline"><mi>{}</mi></math></span>'
    html = "<p>{} and then {}. End</p>".format(math.format("a"), math.format("b"))
    result = keep_punctuation_with_math(html)
    assert result.count('class="math-nowrap"') == 1
    wrapped = result.split('class="math-nowrap">')[1].split("</span>.")[0]
    assert wrapped.count("<math") == 1 and "<mi>b</mi>" in wrapped


def test_the_readme_example_lesson_builds_as_the_readme_says(tmp_path, capsys):
    readme = (ROOT / "README.md").read_text()
    example = readme.split("````markdown\n", 1)[1].split("\n````", 1)[0]
    write_lesson(tmp_path, example + "\n")
    status, err = build(tmp_path, capsys)
    assert status == 0, err
    page = (tmp_path / "_site" / "01-lesson" / "index.html").read_text()
    assert '<span class="glued" data-glue="total">1.048.576</span>' in page
    assert "ZeroDivisionError" in page and "% (in a Spanish" not in page


BLOCKS_FIXTURE = ROOT / "tests" / "fixtures" / "blocks" / "lessons"
GLUED_TOTAL = '<span class="glued" data-glue="total">1.048.576</span>'
GLUED_RATIO = '<span class="glued" data-glue="ratio">0,25</span>'
BLOCK_REGIONS = {  # where each kind of block puts its Markdown on the page
    "answer": r'<details class="answer">.*?</details>',
    "quiz question": r"<legend data-content>.*?</legend>",
    "quiz option": r'<label class="quiz-option">.*?</label>',
    "quiz explanation": r'<div class="quiz-explanation".*?</div>',
    "exercise prompt": r'<div class="exercise-prompt" data-content>.*?</div>',
    "exercise hint": r'<ol class="hints".*?</ol>',
    "explorable caption": r"<figcaption data-content>.*?</figcaption>",
    "further reading": r'<aside class="further-reading".*?</aside>',
    "self-check item": r'<li class="self-check-item".*?</li>',
}


@pytest.fixture(scope="module")
def blocks_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("blocks") / "_site"
    assert cli.main(["--lessons", str(BLOCKS_FIXTURE), "--out", str(out), "build"]) == 0
    return (out / "01-glue-in-blocks" / "index.html").read_text()


@pytest.mark.parametrize("block", sorted(BLOCK_REGIONS))
def test_a_glued_value_is_filled_in_inside_every_kind_of_block(blocks_page, block):
    regions = re.findall(BLOCK_REGIONS[block], blocks_page, re.S)
    assert regions, "no {} on the page".format(block)
    assert any(GLUED_TOTAL in region for region in regions), regions
    assert not any("{glue}" in region for region in regions)


def test_a_glued_value_keeps_its_format_spec_inside_quiz_options_and_hints(blocks_page):
    options = re.findall(BLOCK_REGIONS["quiz option"], blocks_page, re.S)
    assert GLUED_RATIO in options[1]
    assert GLUED_RATIO in re.search(BLOCK_REGIONS["exercise hint"], blocks_page, re.S).group(0)


def test_math_inside_blocks_is_rendered_as_mathml(blocks_page):
    for block in ("answer", "explorable caption"):
        region = re.search(BLOCK_REGIONS[block], blocks_page, re.S).group(0)
        assert "<math" in region and "$" not in region


BLOCK_ERRORS = {  # body, line of the mistake in the file (the header is 7 lines), message
    "unknown glue in an answer": (":::{answer} A\nFirst line.\nQuotes {glue}`nothing`.\n:::\n", 10,
                                  "{glue}`nothing` names no value"),
    "unknown glue in a quiz explanation": (
        "```{quiz} truefalse\nquestion: Q?\nanswer: true\nexplanation: |\n  One.\n  Two {glue}`nothing`.\n```\n",
        13, "{glue}`nothing` names no value"),
    "unknown glue in a quiz option": (
        "```{quiz} single\nquestion: Q?\noptions:\n  - text: a\n    correct: true\n  - text: b {glue}`nothing`\n"
        "explanation: E.\n```\n", 13, "{glue}`nothing` names no value"),
    "bad math in an answer": (":::{answer} A\nFirst line.\n\nBroken $\\frac{1$.\n:::\n", 11, "unbalanced braces"),
    "bad math in a quiz question": ("```{quiz} truefalse\nanswer: true\nquestion: Is $\\frac{1$ so?\n"
                                    "explanation: E.\n```\n", 10, "unbalanced braces"),
}


@pytest.mark.parametrize("case", sorted(BLOCK_ERRORS))
def test_a_mistake_inside_a_block_is_reported_at_its_own_line(tmp_path, capsys, case):
    body, line, message = BLOCK_ERRORS[case]
    assert_fails_at_line(tmp_path, capsys, HEADER + body, line, message)


def test_each_language_writes_numbers_as_its_strings_file_declares():
    from coursebuild import i18n
    assert i18n.languages() == ("en", "es", "uk")
    for language in i18n.languages():
        strings = i18n.strings(language)
        first = strings["first_grouped_number"]
        thousands = first.strip("0123456789")
        smallest = int(first.replace(thousands, ""))
        assert number(smallest, "", language) == first
        assert number(smallest - 1, "", language) == str(smallest - 1)
        assert number(1048576.5, "", language) == "1{0}048{0}576{1}5".format(
            thousands, strings["decimal_separator"])


def test_display_markup_keeps_exactly_the_shared_whitelist():
    import json

    from coursebuild.sanitize import sanitize
    whitelist = json.loads((ROOT / "site" / "whitelist.json").read_text())
    for element in whitelist["elements"]:
        assert sanitize("<{0} class='c' onclick='x()'>t</{0}>".format(element)) == '<{0} class="c">t</{0}>'.format(
            element)
    assert sanitize("<img src=x><iframe></iframe><span style='x'>t</span>") == "t"


MARKUP_IN_MATH = """\
Uno $\\text{cumple d<d_model}$ dos.

Tres $\\text{<svg/onload=alert(1)>}$ cuatro $\\text{a & b}$.

Cinco, the rest of the lesson.
"""


def test_markup_written_inside_math_text_stays_text_inside_the_formula(tmp_path, capsys):
    write_lesson(tmp_path, HEADER + MARKUP_IN_MATH)
    status, err = build(tmp_path, capsys)
    assert status == 0, err
    page = (tmp_path / "_site" / "01-lesson" / "index.html").read_text()
    assert "<mtext>cumple&#x000A0;d&lt;d_model</mtext>" in page
    assert "<mtext>&lt;svg/onload=alert(1)&gt;</mtext>" in page and "<svg" not in page
    assert "<mtext>a&#x000A0;&amp;&#x000A0;b</mtext>" in page
    assert re.search(r"</math></span> dos\.</p>", page)  # the formula ends where the author ended it
    assert "<p>Cinco, the rest of the lesson.</p>" in page


@pytest.mark.parametrize("latex, attribute", [
    ("\\href{javascript:alert(1)}{x}", "href"), ("\\style{color:red}{x}", "style"), ("\\class{big}{x}", "class")])
def test_math_commands_that_write_attributes_are_refused_at_their_line(tmp_path, capsys, latex, attribute):
    assert_fails_at_line(tmp_path, capsys, HEADER + "Fine.\n\n:::{answer}\nText\nand $" + latex + "$.\n:::\n", 12,
                         "sets the attribute '{}'".format(attribute))
    assert not (tmp_path / "_site").exists()


def test_every_mathml_tag_and_attribute_the_course_writes_is_in_the_whitelist():
    from coursebuild import mathml
    lesson = (ROOT / "lessons" / "000-varias-cabezas" / "lesson.md").read_text()
    formulas = re.findall(r"\$\$(.+?)\$\$|\$(.+?)\$", lesson, re.S)
    assert len(formulas) > 10
    for display, inline in formulas:
        assert "<math" in mathml.to_mathml(display or inline, bool(display))


def test_values_a_cell_puts_in_its_output_are_escaped_in_attributes_too():
    from coursebuild.assets import load_strings
    from coursebuild.outputs import render_output
    strings = load_strings(ROOT / "site")[0]["en"]
    evil = '1"><img src=x onerror=alert(1)>'
    html = render_output([{"type": "progress", "step": evil, "steps": evil, "loss": evil},
                          {"type": "stream", "name": evil, "text": evil}], strings)
    assert "<img" not in html
    escaped = '1&quot;&gt;&lt;img src=x onerror=alert(1)&gt;'
    assert "<progress></progress>" in html  # steps that are not numbers: a bar with no end, as in the page
    assert "step " + escaped in html and 'out-' + escaped + '"' in html
    assert "{epoch" not in html  # a part naming a value the cell did not give is left out, as in the page


LOOKS_LIKE_A_DIRECTIVE = {  # each is an error naming its line and the known names, never a silent drop
    "a directive name with a space": ("```{code cell} ipython3\nprint(1)\n```\n", 8,
                                      "such as '```{code-cell}' (known: answer, code-cell"),
    "a colon fence without braces": ("::: answer\nText.\n:::\n", 8, "such as ':::{answer}' (known: answer"),
    "a plain fence named like a directive": ("```code-cell\nx = 1\n```\n", 8, "write '```{code-cell}'"),
    "a directive nested in an answer": (":::{answer} A\nText.\n\n```{code-cell} ipython3\nx = 1\n```\n:::\n", 11,
                                        "directives do not nest"),
    "a colon fence nested in an answer": (":::{answer} A\nText.\n\n:::{note}\nx\n:::\n:::\n", 11,
                                          "directives do not nest"),
    "an option after a blank line": ("```{code-cell} ipython3\n\n:tags: [raises-exception]\n1/0\n```\n", 10,
                                     "':tags:' looks like an option but is not right after"),
    "a misspelled option": ("```{code-cell} ipython3\n:tag: [raises-exception]\n1/0\n```\n", 8,
                            "no option ':tag:'; did you mean ':tags:'? (known: checks, id, tags)"),
    "a misspelled option key of a quiz": (
        "```{quiz} single\nquestion: Q?\noptions:\n  - text: a\n    corect: true\n  - text: b\n    correct: true\n"
        "explanation: E.\n```\n", 12, "option 1 has no key 'corect:'; did you mean 'correct:'? (known: correct, text)"),
    "a misspelled quiz key": ("```{quiz} truefalse\nquestion: Q?\nanswer: true\nexplantion: E.\n```\n", 11,
                              "has no key 'explantion:'; did you mean 'explanation:'? (known: answer, explanation, hint, question)"),
    "a quiz key written twice": ("```{quiz} truefalse\nquestion: Q?\nanswer: true\nanswer: false\n"
                                 "explanation: E.\n```\n", 11, "the key 'answer:' is written twice"),
    "a correct that is not true or false": (
        "```{quiz} single\nquestion: Q?\noptions:\n  - text: a\n    correct: 'yes'\n  - text: b\n    correct: true\n"
        "explanation: E.\n```\n", 12, "'correct:' of option 1 must be true or false"),
    "an infinite numeric answer": ("```{quiz} numeric\nquestion: Q?\nanswer: .inf\ntolerance: 0\nexplanation: E.\n```\n",
                                   10, "'answer:' as a finite number"),
    "a tolerance that is not a number": (
        "```{quiz} numeric\nquestion: Q?\nanswer: 1\ntolerance: .nan\nexplanation: E.\n```\n", 11, "finite number"),
}


@pytest.mark.parametrize("case", sorted(LOOKS_LIKE_A_DIRECTIVE))
def test_what_looks_like_a_directive_option_or_key_but_is_not_one_is_an_error(tmp_path, capsys, case):
    body, line, message = LOOKS_LIKE_A_DIRECTIVE[case]
    assert_fails_at_line(tmp_path, capsys, HEADER + body, line, message)


def test_a_misspelled_quiz_key_is_one_error_not_also_a_missing_key(tmp_path, capsys):
    write_lesson(tmp_path, HEADER + "```{quiz} truefalse\nquestion: Q?\nanswer: true\nexplantion: E.\n```\n")
    status, err = build(tmp_path, capsys)
    assert status == 1 and "did you mean 'explanation:'" in err and "lacks" not in err
    assert "1 error(s)" in err


def test_two_exercises_with_the_same_id_are_refused(tmp_path, capsys):
    folder = write_lesson(tmp_path, HEADER + 2 * (
        "::::{exercise} f\n:checker: multi_head\n:starter: s.py\n:solution: s.py\n:wrong: w\n\n"
        "Write it.\n::::\n\n")).parent
    (folder / "s.py").write_text("x = 1\n")
    (folder / "w").mkdir()
    (folder / "w" / "w.py").write_text("x = 2\n")
    status, err = build(tmp_path, capsys)
    assert status == 1 and "lesson.md:17: the exercise id 'f' is already used at line 8" in err, err


def test_two_lessons_with_the_same_order_are_refused(tmp_path, capsys):
    write_lesson(tmp_path, HEADER + "One.\n", slug="01-one")
    write_lesson(tmp_path, HEADER + "Two.\n", slug="02-two")
    status, err = build(tmp_path, capsys)
    assert status == 1
    assert "02-two/lesson.md:4: order 1 is already the order of " in err and "01-one/lesson.md" in err, err


def test_a_lesson_that_is_not_utf8_is_reported_at_the_line_of_its_first_bad_byte(tmp_path, capsys):
    path = write_lesson(tmp_path, HEADER + "Fine.\n")
    path.write_bytes(path.read_bytes() + "Caf\u00e9 con leche.\n".encode("latin-1"))
    status, err = build(tmp_path, capsys)
    assert status == 1 and "lesson.md:9: this file is not UTF-8 (byte 0xe9" in err, err
    assert "Traceback" not in err


EXERCISE = ("::::{exercise} f\n:checker: multi_head\n:starter: {starter}\n:solution: s.py\n"
            ":wrong: w\n\nWrite it.\n::::\n")


def write_exercise_files(root, starter="s.py"):
    folder = write_lesson(root, HEADER + EXERCISE.replace("{starter}", starter)).parent
    (folder / "s.py").write_text("x = 1\n")
    (folder / "w").mkdir()
    (folder / "w" / "w.py").write_text("x = 2\n")
    return folder


def test_an_exercise_file_that_is_not_utf8_is_reported_at_its_own_line(tmp_path, capsys):
    folder = write_exercise_files(tmp_path)
    (folder / "w" / "w.py").write_bytes(b"x = 2\n# r\xe9sum\xe9\n")
    status, err = build(tmp_path, capsys)
    assert status == 1 and "w/w.py:2: this file is not UTF-8 (byte 0xe9" in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("starter", ["../../../etc/passwd", "/etc/passwd", "../01-lesson/../../x.py"])
def test_an_exercise_path_that_leaves_the_lesson_folder_is_refused(tmp_path, capsys, starter):
    write_exercise_files(tmp_path, starter)
    status, err = build(tmp_path, capsys)
    assert status == 1 and "lesson.md:8: :starter: {} is outside the lesson's folder".format(starter) in err, err
    assert not (tmp_path / "_site").exists()


def test_the_build_writes_a_progress_item_of_any_shape_as_the_page_does():
    from coursebuild.outputs import progress_text, render_output
    strings = {"decimal_separator": ",", "progress_text": "Epoch {epoch}/{epochs} · step {step}/{steps} · loss {loss}",
               "progress_accuracy": " · digits {digits} % · sequences {sequences} %", "progress_stopped": " · stopped"}
    assert progress_text({"step": 3, "steps": 8}, strings) == "step 3/8"  # tests/js/progress.test.mjs: the same
    assert progress_text({"epoch": 1, "loss": "nan", "digits": 50}, strings) == "loss nan · digits 50 %"
    assert '<progress max="8" value="3">' in render_output([{"type": "progress", "step": 3, "steps": 8}], strings)
    assert "<progress></progress>" in render_output([{"type": "progress", "step": 1, "steps": "many"}], strings)


def test_a_cell_whose_request_failed_is_named_at_its_own_line_not_the_first_cells():
    from types import SimpleNamespace

    from coursebuild import execute
    cells = [SimpleNamespace(number=1, name="1", line=8), SimpleNamespace(number=2, name="2", line=12)]
    lesson = SimpleNamespace(path="lessons/l/lesson.md", cells=cells)
    failed = {"ok": False, "error": {"text": "TypeError: the reply cannot be sent as JSON\n"}}
    # init, then each cell's run and the glue read after it
    outcome = SimpleNamespace(stuck=None, reason=None, replies=[{"ok": True}, {"ok": True}, {"ok": True}, failed])
    error = execute._not_run(lesson, outcome)
    assert (error.line, error.message) == (12, "cell 2 could not be run (TypeError: the reply cannot be sent as JSON)")
    outcome.replies = [failed]
    assert execute._not_run(lesson, outcome).line == 8  # Python itself did not start: the library, at the first cell


def test_numpy_and_non_finite_progress_values_build(tmp_path, capsys):
    write_lesson(tmp_path, HEADER + "```{code-cell} ipython3\nimport numpy as np\nfrom course.nn.train import "
                 "train_steps\nr = await train_steps(lambda i: np.float64('nan'), np.int64(3))\n```\n")
    status, err = build(tmp_path, capsys)
    assert status == 0, err


def test_values_missing_because_a_cell_failed_are_summarised_under_that_cell(tmp_path, capsys):
    quotes = "".join("Value {{glue}}`v{}`.\n\n".format(number) for number in range(12))
    write_lesson(tmp_path, HEADER + "```{code-cell} ipython3\nfrom course.glue import glue\n1 / 0\n"
                 "for n in range(12):\n    glue('v%d' % n, n)\n```\n\n" + quotes)
    status, err = build(tmp_path, capsys)
    assert status == 1 and "lesson.md:10: cell 1 raised ZeroDivisionError" in err, err
    assert "12 more error(s) (lines 15, 17, 19" in err and "probably follow from" in err
    assert err.count("names no value") == 1 and "Build failed with 2 error(s)" in err


def test_a_mistyped_value_name_with_no_failed_cell_is_reported_in_full(tmp_path, capsys):
    write_lesson(tmp_path, HEADER + "```{code-cell} ipython3\nfrom course.glue import glue\nglue('v', 1)\n```\n\n"
                 "One {glue}`w`.\n\nTwo {glue}`x`.\n")
    status, err = build(tmp_path, capsys)
    assert status == 1 and "lesson.md:13: {glue}`w` names no value" in err and "lesson.md:15: {glue}`x`" in err


def test_named_math_spaces_are_written_as_lengths_every_engine_reads():
    # Firefox warns that the named space \! becomes (negativethinmathspace) is deprecated; MathML Core has none.
    from coursebuild.mathml import to_mathml
    html_text = to_mathml(r"a\!b\,c", display=False)
    assert "mathspace" not in html_text
    assert 'width="-0.1667em"' in html_text and 'width="0.167em"' in html_text


def test_a_build_removes_the_staging_folders_a_killed_build_left_behind(tmp_path, capsys):
    write_lesson(tmp_path, GOOD)
    for name in ("_site.k3x9q2ab", "_site.old", "_site.backup"):
        (tmp_path / name / "01-lesson").mkdir(parents=True)
    status, _ = build(tmp_path, capsys)
    assert status == 0
    kept = sorted(path.name for path in tmp_path.iterdir() if path.name.startswith("_site"))
    assert kept == ["_site", "_site.backup"]  # an author's own folder is not the build's to remove


@pytest.mark.parametrize("hint, line, message", [
    (":::{hint} Look here\nSubtract the maximum.\n:::\n", 16, "a hint has no title ('Look here')"),
    (":::{hint}\n:id: first\nSubtract the maximum.\n:::\n", 16, "directive 'hint' has no option ':id:'"),
    (":::{hint}\n:::\n", 16, "this hint is empty"),
])
def test_a_hint_is_read_as_a_directive_and_its_mistakes_are_named_at_its_line(tmp_path, capsys, hint, line, message):
    folder = write_lesson(tmp_path, HEADER + EXERCISE.replace("{starter}", "s.py").replace(
        "Write it.\n", "Write it.\n\n" + hint)).parent
    (folder / "s.py").write_text("x = 1\n")
    (folder / "w").mkdir()
    (folder / "w" / "w.py").write_text("x = 2\n")
    status, err = build(tmp_path, capsys)
    assert status == 1 and "lesson.md:{}: {}".format(line, message) in err, err


def test_an_answers_title_is_inline_markdown_with_math_and_glued_values(tmp_path, capsys):
    write_lesson(tmp_path, GOOD + "\n:::{answer} Why is $x^2$ {glue}`answer` and `code`?\nBecause.\n:::\n")
    assert build(tmp_path, capsys)[0] == 0
    page = (tmp_path / "_site" / "01-lesson" / "index.html").read_text(encoding="utf-8")
    summary = re.findall(r"<summary>(.*?)</summary>", page, re.S)[-1]
    assert "<math" in summary and '<span class="glued" data-glue="answer">1,048,576</span>' in summary
    assert "<code>code</code>" in summary and "{glue}" not in summary


def test_a_quiz_hint_is_the_authors_or_the_explanations_first_sentence_and_an_exact_answer_says_so(tmp_path, capsys):
    write_lesson(tmp_path, HEADER + textwrap.dedent("""\
        ```{quiz} numeric
        question: How many?
        answer: 4
        tolerance: 0
        explanation: Count the $2 \\cdot 2$ squares. Each one is a cell.
        ```

        ```{quiz} truefalse
        question: Is it?
        answer: true
        hint: Think of the square.
        explanation: Yes. Because.
        ```
        """))
    assert build(tmp_path, capsys)[0] == 0
    page = (tmp_path / "_site" / "01-lesson" / "index.html").read_text()
    hints = re.findall(r'<div class="quiz-hint" data-content hidden>(.*?)</div>', page, re.S)
    assert len(hints) == 2 and hints[0].startswith("<p>Count the ") and hints[0].endswith("squares.</p>\n")
    assert hints[1] == "<p>Think of the square.</p>\n"
    assert re.findall(r'<p class="quiz-note" data-content>(.*?)</p>', page) == ["The exact answer is expected."]


def test_a_missing_import_is_one_error_and_the_name_errors_after_it_one_summary_line(tmp_path, capsys):
    write_lesson(tmp_path, HEADER + "```{code-cell} ipython3\nimport matplotlib.pyplot as plt\n```\n\n"
                 "```{code-cell} ipython3\nplt.plot([1, 2])\n```\n\n```{code-cell} ipython3\nfigure = plt.figure()\n```\n")
    status, err = build(tmp_path, capsys)
    assert status == 1
    assert "lesson.md:9: cell 1 raised ModuleNotFoundError" in err and "'matplotlib'" in err, err
    assert "2 more error(s) (lines 13, 17) probably follow from the one(s) above" in err, err
    assert err.count("lesson.md:") == 2 and "2 error(s)" in err, err
