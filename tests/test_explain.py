"""Errors explained (course.explain): each beginner's error, raised by a cell, gets sentences under its traceback
that name the learner's own values, in each of the course's three languages; other errors get none."""

import subprocess
import sys

import pytest

from course import numbers
from course.runner import Session
from coursebuild.outputs import render_output
from support import ROOT, run_on_own_thread

# (cell code, {language: words the explanation must hold}): the learner's own shapes, sizes and names.
CASES = {
    "matmul": ("import numpy as np\nQ = np.ones((4, 8))\nK = np.ones((4, 8))\nS = Q @ K", {
        "en": ["`Q` has shape (4, 8)", "`K` has shape (4, 8)", "last axis (8)", "first axis (4)", "`K.T`, of shape (8, 4)"],
        "es": ["`Q` tiene forma (4, 8)", "último eje de la izquierda (8)", "`K.T`, de forma (8, 4)"],
        "uk": ["`Q` має форму (4, 8)", "остання вісь лівого (8)", "`K.T` форми (8, 4)"]}),
    "matmul_batch": ("import numpy as np\nx = np.ones((2, 3, 5))\nW = np.ones((4, 5))\ny = x @ W[:, :]", {
        "en": ["`x` has shape (2, 3, 5)", "`W[:, :]` has shape (4, 5)", "(5)", "(4)"],
        "es": ["`x` tiene forma (2, 3, 5)"], "uk": ["`x` має форму (2, 3, 5)"]}),
    "broadcast": ("import numpy as np\nx = np.ones((4, 6))\ny = x - x.mean(axis=-1)", {
        "en": ["(4, 6) and (4,)", "the last axis", "6 and 4", "keepdims=True"],
        "es": ["(4, 6) y (4,)", "el último eje", "6 y 4", "keepdims=True"],
        "uk": ["(4, 6) і (4,)", "остання вісь", "6 і 4", "keepdims=True"]}),
    "axis": ("import numpy as np\nnp.ones((3, 4)).sum(axis=2)", {
        "en": ["2 axes", "0 to 1", "axis 2 does not exist"], "es": ["2 ejes", "de 0 a 1", "el eje 2 no existe"],
        "uk": ["осей: 2", "від 0 до 1", "осі 2"]}),
    "index": ("import numpy as np\nv = np.ones(5)\nv[5]", {
        "en": ["Axis 0 has 5 entries", "0 to 4", "index 5"], "es": ["El eje 0 tiene 5 elementos", "el índice 5"],
        "uk": ["Вісь 0 має елементів: 5", "індекс 5"]}),
    "name": ("matrix = 1\nprint(matrx)", {
        "en": ["`matrx`", "Did you mean `matrix`?"], "es": ["`matrx`", "¿Querías decir `matrix`?"],
        "uk": ["`matrx`", "`matrix`"]}),
    "none": ("def double(x):\n    y = 2 * x\n\ndouble(3)[0]", {
        "en": ["without `return` gives None"], "es": ["sin `return` devuelve None"], "uk": ["без `return`, повертає None"]}),
    "syntax": ("x = 1\ny = 2 +\nz = 3", {
        "en": ["could not read line 2"], "es": ["no pudo leer la línea 2"], "uk": ["не зміг прочитати рядок 2"]}),
    "indent": ("def f():\nreturn 1", {
        "en": ["indentation of line 2"], "es": ["sangría de la línea 2"], "uk": ["Відступ рядка 2"]}),
}


def error_of(code, language, session=None):
    """The error item a cell running `code` outputs, on a page in `language`."""
    session = session or Session()
    before = numbers.current_language()
    numbers.set_language(language)
    try:
        result = run_on_own_thread(session.run("1", code))  # Playwright's loop may be running in this thread
    finally:
        numbers.set_language(before)
    assert not result["ok"]
    return next(item for item in result["output"] if item["type"] == "error")


@pytest.mark.parametrize("language", ["en", "es", "uk"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_beginners_error_is_explained_with_the_learners_own_values(case, language):
    code, expected = CASES[case]
    item = error_of(code, language)
    assert "Traceback" in item["text"] or "Error" in item["text"]  # the traceback stays, the sentences go under it
    for words in expected[language]:
        assert words in item["explanation"], (words, item["explanation"])


@pytest.mark.parametrize("code", ["raise RuntimeError('mine')", "import numpy as np\nnp.ones(3).reshape(2, 2)",
                                  "1 / 0"])
def test_an_error_it_has_nothing_to_add_to_gets_no_explanation(code):
    assert "explanation" not in error_of(code, "en")


def test_a_product_whose_operands_are_computed_is_explained_without_calling_anything():
    code = ("import numpy as np\ncalls = []\ndef make():\n    calls.append(1)\n    return np.ones((4, 8))\n"
            "y = make() @ make()")
    session = Session()
    item = error_of(code, "en", session)
    assert "here they are 8 and 4" in item["explanation"]
    assert session.namespace["calls"] == [1, 1]  # the cell's own two calls; the explanation made none


def test_the_build_writes_the_explanation_under_the_traceback_as_the_page_does():
    markup = render_output([{"type": "error", "text": "ValueError: x\n", "explanation": "In `a @ b` <b>"}], {})
    assert markup.endswith('<pre class="out out-error">ValueError: x\n</pre>'
                           '<p class="out out-explain">In <code>a @ b</code> &lt;b&gt;</p>')


def test_a_page_whose_cells_run_cleanly_never_loads_the_explanations():
    code = ("import asyncio, sys\nfrom course.runner import Session\n"
            "asyncio.run(Session().run('1', 'x = 1'))\nprint('course.explain' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT / "py"), capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
