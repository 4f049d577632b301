"""Every lesson builds, every cell runs in CPython, and the code stays within Python 3.8 / NumPy 1.17."""

import ast
import json
import re

import pytest

from support import ROOT

LESSONS = sorted((ROOT / "lessons").glob("*/lesson.md"))
LIBRARY = sorted((ROOT / "py" / "course").rglob("*.py"))


def test_every_cell_of_every_lesson_runs_and_its_output_is_in_the_page(course_site):
    from coursebuild.lesson import read_lesson
    for path in LESSONS:
        lesson, errors = read_lesson(path)
        assert errors == []
        page = (course_site / lesson.slug / "index.html").read_text()
        data = json.loads(re.search(r'<script type="application/json" id="page-data">(.*?)</script>',
                                    page, re.S).group(1))
        assert [cell["code"] for cell in data["cells"]] == [cell.code for cell in lesson.cells]
        for cell in lesson.cells:
            section = re.search(r'<section class="cell" id="cell-{}".*?</section>'.format(cell.number), page, re.S)
            if not {"remove-output", "remove-cell"} & set(cell.tags):  # bookkeeping whose output no one sees
                assert 'class="out out-' in section.group(0), "cell {} of {} printed nothing".format(cell.number, path)
            if not cell.raises:
                assert "out-error" not in section.group(0)


def _sources():
    from coursebuild.lesson import read_lesson
    for path in LESSONS:
        lesson, _ = read_lesson(path)
        for cell in lesson.cells:
            yield "{} cell {}".format(path.parent.name, cell.number), cell.code
    for path in LIBRARY:
        yield str(path.relative_to(ROOT)), path.read_text()


@pytest.mark.parametrize("name, source", list(_sources()), ids=lambda value: value if "\n" not in value else "")
def test_code_parses_as_python_3_8(name, source):
    ast.parse(source, feature_version=(3, 8))


NEWER_THAN_NUMPY_1_17 = ("np.random.Generator.", "np.lib.stride_tricks.sliding_window_view", "np.emath.",
                         "np.exceptions", "np.trapezoid", "np.vecdot", "np.matrix_transpose", "np.unstack",
                         "np.concat(", "np.permute_dims", "np.pow(", "np.bitwise_count", "np.astype(")


@pytest.mark.parametrize("name, source", list(_sources()), ids=lambda value: value if "\n" not in value else "")
def test_code_uses_no_numpy_api_newer_than_1_17(name, source):
    for newer in NEWER_THAN_NUMPY_1_17:
        assert newer not in source, "{} uses {}, which NumPy 1.17 lacks".format(name, newer)
