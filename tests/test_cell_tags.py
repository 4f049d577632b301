"""Cells' display tags (MyST-NB's remove-* and hide-*) in the built page: what a reader sees without JavaScript."""

import json
import re

import pytest
from test_build import HEADER, build, write_lesson

from support import ROOT, build_site

FIXTURE = ROOT / "tests" / "fixtures" / "cells" / "lessons"
SLUG = "01-celdas"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    site = build_site(FIXTURE, tmp_path_factory.mktemp("cells") / "_site")
    return (site / SLUG / "index.html").read_text(encoding="utf-8")


def section(page, number):
    """The HTML of cell `number`'s section."""
    return re.search(r'<section class="cell" id="cell-{}".*?</section>'.format(number), page, re.S).group(0)


def page_cells(page):
    return json.loads(re.search(r'id="page-data">(.*?)</script>', page, re.S).group(1))["cells"]


def test_a_removed_cell_is_hidden_without_its_code_but_keeps_its_output_for_the_browser_to_match(page):
    removed = section(page, 2)
    assert re.match(r'<section [^>]*data-tags="remove-cell" hidden>', removed)
    assert "cell-code" not in removed and "data-action=\"run\"" not in removed
    assert "oculta 20" in removed  # inside the hidden section: a reader never sees it
    assert "y = x * 10" in page_cells(page)[1]["code"] and "y = x" not in page.split('id="page-data"')[0]
    assert '<span class="glued" data-glue="y">20</span>' in page  # it ran in order at build time


def test_a_removed_input_shows_the_output_alone(page):
    cell = section(page, 3)
    assert "cell-code" not in cell and "cell-bar" not in cell and "print(" not in cell
    assert re.search(r'<div class="cell-output"[^>]*data-origin="build">\s*<pre class="out out-stdout">solo la salida 20',
                     cell)


def test_a_removed_output_shows_the_code_alone(page):
    cell = section(page, 4)
    assert "cell-code" in cell and "data-action=\"run\"" in cell
    assert re.search(r'<div class="cell-output"[^>]* hidden>.*salida quitada 21', cell, re.S)


def test_a_hidden_input_is_folded_under_a_label_in_the_lessons_language(page):
    cell = section(page, 5)
    fold = re.search(r'<details class="cell-fold" data-fold="input"><summary>Mostrar el código</summary>\s*'
                     r'<div class="cell-code".*?</details>', cell, re.S)
    assert fold and "<details open" not in cell
    assert "código plegado 22" in cell.split("</details>")[1]  # the output stays in view


def test_a_hidden_output_is_folded_under_a_label_in_the_lessons_language(page):
    cell = section(page, 6)
    fold = re.search(r'<details class="cell-fold" data-fold="output"><summary>Mostrar la salida</summary>\s*'
                     r'<div class="cell-output".*?salida plegada 23.*?</div>\s*</details>', cell, re.S)
    assert fold and "cell-code" in cell.split("<details")[0]


def test_untagged_cells_carry_no_tags(page):
    assert "data-tags" not in section(page, 1) and "<details" not in section(page, 1)
    assert [cell["tags"] for cell in page_cells(page)][:7] == [
        [], ["remove-cell"], ["remove-input"], ["remove-output"], ["hide-input"], ["hide-output"], []]


def test_an_output_that_gives_answers_away_is_folded_but_in_the_page(page):
    cell = section(page, 8)
    assert re.search(r'<details class="cell-fold" data-fold="answer"><summary>Mostrar la salida \(da la respuesta: '
                     r'contesta antes la pregunta\)</summary>\s*<div class="cell-output".*?y vale 20', cell, re.S)
    assert "<details open" not in cell
    assert page_cells(page)[7]["checks"] == ["q-doble", "q-signo"]


def test_checks_on_an_output_a_tag_removes_is_an_error_at_its_line(tmp_path, capsys):
    write_lesson(tmp_path, HEADER + "```{quiz} truefalse\n:id: q\nquestion: Yes?\nanswer: true\nexplanation: Yes.\n```\n\n"
                 "```{code-cell} ipython3\n:tags: [remove-output]\n:checks: [q]\nprint(1)\n```\n", slug="01-l")
    status, err = build(tmp_path, capsys)
    assert status == 1
    assert ("lesson.md:15: cell 1 ':checks:' folds an output that 'remove-output' removes; drop the tag or "
            "':checks:'") in err


def test_removed_cells_leave_no_gap_in_the_numbers_the_learner_reads(tmp_path, capsys):
    path = write_lesson(tmp_path, HEADER + "```{code-cell} ipython3\nx = 1\n```\n\n"
                        "```{code-cell} ipython3\n:tags: [remove-cell]\ny = 2\n```\n\n"
                        "```{code-cell} ipython3\nprint(x + y)\n```\n\n"
                        "```{code-cell} ipython3\n:tags: [remove-input]\nz = 1 / 0\n```\n", slug="01-names")
    status, err = build(tmp_path, capsys)
    assert status == 1
    assert "lesson.md:23: cell 2.1 raised ZeroDivisionError" in err
    path.write_text(path.read_text().replace("1 / 0", "3"), encoding="utf-8")
    assert build(tmp_path, capsys)[0] == 0
    page = (tmp_path / "_site" / "01-names" / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'class="cell-name"[^>]*>([^<]*)', page) == ["Cell 1", "Cell 2"]
    names = [cell["name"] for cell in json.loads(re.search(r'id="page-data">(.*?)</script>', page, re.S).group(1))["cells"]]
    assert names == ["1", "1.1", "2", "2.1"]


def test_a_mystnb_option_block_between_dashes_sets_the_cells_options(tmp_path, capsys):
    write_lesson(tmp_path, HEADER + "```{code-cell} ipython3\n---\nid: setup\ntags: [remove-input]\n---\nprint(6 * 7)\n```\n",
                 slug="01-block")
    status, err = build(tmp_path, capsys)
    assert status == 0, err
    page = (tmp_path / "_site" / "01-block" / "index.html").read_text(encoding="utf-8")
    [cell] = page_cells(page)
    assert (cell["key"], cell["tags"], cell["code"]) == ("setup", ["remove-input"], "print(6 * 7)")
    assert "42" in section(page, 1)


@pytest.mark.parametrize("block, line, message", [
    ("---\ntags: [remove-input]\nprint(1)\n", 9, "the option block opened with '---' is never closed"),
    ("---\ntags: [remove-input\n---\nprint(1)\n", 10, "the option block between '---' lines is not valid YAML"),
    ("---\n- remove-input\n---\nprint(1)\n", 9,
     "the option block between '---' lines must be 'name: value' lines, such as 'tags: [remove-input]'"),
])
def test_a_broken_option_block_is_an_error_at_its_line_not_a_syntax_error(tmp_path, capsys, block, line, message):
    write_lesson(tmp_path, HEADER + "```{code-cell} ipython3\n" + block + "```\n", slug="01-block")
    status, err = build(tmp_path, capsys)
    assert status == 1
    assert "lesson.md:{}: {}".format(line, message) in err and "SyntaxError" not in err, err
    assert not (tmp_path / "_site").exists()
