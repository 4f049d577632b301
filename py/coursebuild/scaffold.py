"""`build.py new NAME --language LANG`: a lesson folder that builds and passes its own checks and tests at once.

    lessons/<number>-NAME/
        lesson.md                      front matter (with the kernelspec Jupyter needs), prose, a cell, a quiz,
                                       the cell that answers it (folded until answered, `:checks:`), an
                                       exercise and an explorable
        exercises/softmax/             starter.py, solution.py, wrong/ (three known mistakes)
        <package>/                     the lesson's own code (NAME with dashes as underscores)
            checkers/softmax.py        the exercise's checker, built on course.checkers.common
            explorables/temperature.py the explorable
        tests/test_lesson.py           the lesson's own test: it builds, its cells reproduce, its checker grades

`number` comes after the last numbered folder in lessons/ (so the new folder sorts last); `order:` is the
course's highest plus one (its place on the path; the two differ when folders were renumbered by hand).
The name must make a package that hides nothing a cell imports (NumPy, the course library, the standard
library, a keyword), nor any top-level module the build or the suite imports: every module of the virtualenv
that runs the build (PyYAML's `yaml`, `pytest`, `packaging`...), of py/ and of tests/ (imported_modules). The
texts are written in the chosen language; the author replaces them with the
lesson's own.
"""

import json
import pkgutil
import re
import shutil
import sys
import sysconfig
from pathlib import Path

from .lesson import package_name
from .packages import shadowed

ROOT = Path(__file__).resolve().parents[2]
MAX_NAME = 64  # characters: the name is a folder's, a URL's and a package's, and goes into longer file names

TEXT = {
    "en": {
        "title": "A new lesson",
        "summary": "What this lesson teaches, in one sentence.",
        "intro": "Three scores become three weights that sum to one: that is what a softmax does.",
        "answer_title": "The largest weight",
        "after_cell": "The largest weight is {glue}`largest:.3f`; it belongs to the largest score.",
        "question": "Which score gets the largest weight?",
        "options": ("The largest score.", "The smallest score.", "All get the same weight."),
        "explanation": "The exponential keeps the order of the scores, so the largest score gets the largest weight.",
        "quiz_hint": "Does the exponential ever change which of two scores is larger?",
        "prompt": "Write `softmax(scores)`: the weights $e^{s_i} / \\sum_j e^{s_j}$ of a vector of scores.",
        "hint": "Subtract the largest score first: the weights stay the same and `np.exp` cannot overflow.",
        "caption": "A temperature divides the scores before the softmax: low sharpens the weights, high evens them.",
        "temperature": "Temperature",
        "weights": "Weights",
        "score": "Score",
        "weight": "Weight",
        "starter_comment": "# Return the softmax of a 1-D array of scores.",
        "checker_doc": "Checker for the softmax exercise: softmax(scores) -> weights, one per score, adding up to 1.",
        "case": "scores {scores}",
        "name": "weights",
        "raised": "For {case} your function raised {kind}: {error}; read the error message and try softmax on a few "
                  "scores in a cell.",
        "not_one": "For {case} the weights add up to {total}, not 1; divide each exponential by the sum of them all.",
        "wrong": "For {case} weight {index} should be {expected}, but it is {actual}; take the exponential of each "
                 "score before dividing.",
        "finite": "subtract the largest score before np.exp, which overflows for scores above about 709",
    },
    "es": {
        "title": "Una lección nueva",
        "summary": "Lo que enseña esta lección, en una frase.",
        "intro": "Tres puntuaciones se convierten en tres pesos que suman uno: eso hace un softmax.",
        "answer_title": "El peso mayor",
        "after_cell": "El peso mayor es {glue}`largest:.3f`; corresponde a la puntuación mayor.",
        "question": "¿Qué puntuación recibe el peso mayor?",
        "options": ("La puntuación mayor.", "La puntuación menor.", "Todas reciben el mismo peso."),
        "explanation": "La exponencial conserva el orden de las puntuaciones: la mayor recibe el peso mayor.",
        "quiz_hint": "¿Cambia alguna vez la exponencial cuál de dos puntuaciones es mayor?",
        "prompt": "Escribe `softmax(scores)`: los pesos $e^{s_i} / \\sum_j e^{s_j}$ de un vector de "
                  "puntuaciones.",
        "hint": "Resta antes la puntuación mayor: los pesos no cambian y `np.exp` no se desborda.",
        "caption": "Una temperatura divide las puntuaciones antes del softmax: baja, afila los pesos; alta, "
                   "los iguala.",
        "temperature": "Temperatura",
        "weights": "Pesos",
        "score": "Puntuación",
        "weight": "Peso",
        "starter_comment": "# Devuelve el softmax de un array 1-D de puntuaciones.",
        "checker_doc": "Corrector del ejercicio del softmax: softmax(scores) -> pesos, uno por puntuación, que suman 1.",
        "case": "las puntuaciones {scores}",
        "name": "pesos",
        "raised": "Con {case} tu función lanzó {kind}: {error}; lee el mensaje del error y prueba softmax con unas "
                  "pocas puntuaciones en una celda.",
        "not_one": "Con {case} los pesos suman {total}, no 1; divide cada exponencial por la suma de todas.",
        "wrong": "Con {case} el peso {index} debería ser {expected}, pero es {actual}; toma la exponencial de cada "
                 "puntuación antes de dividir.",
        "finite": "resta la puntuación mayor antes de np.exp, que se desborda con puntuaciones por encima de unos 709",
    },
    "uk": {
        "title": "Новий урок",
        "summary": "Чого вчить цей урок, одним реченням.",
        "intro": "Три оцінки стають трьома вагами, що в сумі дають одиницю: саме це робить softmax.",
        "answer_title": "Найбільша вага",
        "after_cell": "Найбільша вага — {glue}`largest:.3f`; вона належить найбільшій оцінці.",
        "question": "Яка оцінка отримує найбільшу вагу?",
        "options": ("Найбільша оцінка.", "Найменша оцінка.", "Усі отримують однакову вагу."),
        "explanation": "Експонента зберігає порядок оцінок, тож найбільша оцінка отримує найбільшу вагу.",
        "quiz_hint": "Чи змінює експонента колись, яка з двох оцінок більша?",
        "prompt": "Напишіть `softmax(scores)`: ваги $e^{s_i} / \\sum_j e^{s_j}$ вектора оцінок.",
        "hint": "Спершу відніміть найбільшу оцінку: ваги не зміняться, а `np.exp` не переповниться.",
        "caption": "Температура ділить оцінки перед softmax: низька загострює ваги, висока вирівнює їх.",
        "temperature": "Температура",
        "weights": "Ваги",
        "score": "Оцінка",
        "weight": "Вага",
        "starter_comment": "# Поверніть softmax одновимірного масиву оцінок.",
        "checker_doc": "Перевірка вправи про softmax: softmax(scores) -> ваги, по одній на оцінку, що в сумі дають 1.",
        "case": "оцінок {scores}",
        "name": "ваги",
        "raised": "Для {case} ваша функція викинула {kind}: {error}; прочитайте повідомлення про помилку й "
                  "випробуйте softmax на кількох оцінках у комірці.",
        "not_one": "Для {case} ваги в сумі дають {total}, а не 1; поділіть кожну експоненту на суму всіх.",
        "wrong": "Для {case} вага {index} має бути {expected}, а вона {actual}; візьміть експоненту кожної оцінки, "
                 "перш ніж ділити.",
        "finite": "відніміть найбільшу оцінку перед np.exp, яка переповнюється для оцінок, більших за приблизно 709",
    },
}

LESSON = """\
---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
title: {q_title}
language: {language}
order: {order}
summary: {q_summary}
---

{intro}

```{{code-cell}} ipython3
:id: scores
import numpy as np

scores = np.array([1.0, 2.0, 3.0])
print(scores)
```

```{{quiz}} single
:id: largest
question: {q_question}
options:
  - text: {option_1}
    correct: true
  - text: {option_2}
  - text: {option_3}
hint: {q_quiz_hint}
explanation: {q_explanation}
```

% This cell's output answers the quiz: `:checks:` keeps it folded until the quiz is answered (docs/authoring.md).
```{{code-cell}} ipython3
:id: weights
:checks: [largest]
weights = np.exp(scores) / np.exp(scores).sum()
print(np.round(weights, 3))
```

```{{code-cell}} ipython3
:tags: [remove-cell]
from course.glue import glue

glue("largest", float(weights.max()))
```

:::{{answer}} {answer_title}
{after_cell}
:::

::::{{exercise}} softmax
:checker: softmax
:starter: exercises/softmax/starter.py
:solution: exercises/softmax/solution.py
:wrong: exercises/softmax/wrong

{prompt}

:::{{hint}}
{hint}
:::
::::

```{{explorable}} temperature
{caption}
```
"""

STARTER = """\
import numpy as np


{comment}
def softmax(scores):
    pass
"""

SOLUTION = """\
import numpy as np


def softmax(scores):
    shifted = np.exp(scores - scores.max())
    return shifted / shifted.sum()
"""

WRONG = {  # file name in wrong/ -> a known mistake the checker must reject, each with a sentence of its own
    "forgets_to_normalise.py": """\
import numpy as np


def softmax(scores):
    return np.exp(scores - scores.max())
""",
    "forgets_the_exponential.py": """\
def softmax(scores):
    return scores / scores.sum()
""",
    "overflows.py": """\
import numpy as np


def softmax(scores):
    return np.exp(scores) / np.exp(scores).sum()
""",
}

CHECKER = '''\
"""{doc}

The cases are small vectors of scores (unsorted, negative, a single one), equal scores, and scores so large that
np.exp overflows unless the largest is subtracted first. The first problem found in a case is told in one sentence;
the sentences every checker shares (no function, code that raised, a pass, a strange return) come from
course.checkers.common.
"""

import numpy as np

from course.checkers.common import Phrasebook, run_cases
from course.numbers import number

FUNCTION = "softmax"
LANGUAGE = "{language}"
CASES = (  # one vector of scores per case; the suite asks for six or more (tests/test_exercises.py)
    [1.0, 2.0, 3.0],
    [0.5, -1.0],
    [2.0, -1.0, 0.5],  # unsorted, some negative: each weight stays with its own score
    [10.0, 10.0, 10.0, 10.0],  # equal scores share the weight equally
    [0.0],  # one score alone gets all the weight
    [800.0, 799.0],  # np.exp(800.0) overflows: only a softmax that subtracts the largest score passes
)
TOLERANCE = 1e-9
WORDS = {{  # this checker's own sentences, in the lesson's language
{words}
}}
# softmax returns one array, so this checker calls the function itself and needs only the hint for NaN weights
SAY = Phrasebook(LANGUAGE, signature="scores", finite=WORDS["finite"])
MESSAGES = SAY.messages()


def reference(scores):
    """The softmax of a vector of scores, shifted by the largest so that np.exp cannot overflow."""
    shifted = np.exp(scores - scores.max())
    return shifted / shifted.sum()


def check(function):
    """One result per case, in order, up to and including the first that fails."""
    return run_cases(function, [(np.array(scores),) for scores in CASES], _check_case)


def _check_case(function, scores):
    """A pass, or the first problem: the call raised, no finite float array of the scores' shape came back, the
    weights do not add up to 1, or one weight is not the reference's."""
    case = WORDS["case"].format(scores=number(scores.tolist(), ".1f"))
    try:
        weights = function(scores.copy())
    except Exception as error:  # the learner's bug, told as a sentence
        return _fail(WORDS["raised"].format(case=case, kind=type(error).__name__, error=error))
    problem = SAY.array_problem(WORDS["name"], weights, scores.shape, case)
    if problem:
        return _fail(problem)
    total = float(weights.sum())
    if abs(total - 1.0) > TOLERANCE:
        return _fail(WORDS["not_one"].format(case=case, total=number(total, ".3f")))
    for index, (got, want) in enumerate(zip(weights.tolist(), reference(scores).tolist())):
        if abs(got - want) > TOLERANCE:
            return _fail(WORDS["wrong"].format(case=case, index=index, expected=number(want, ".3f"),
                                               actual=number(got, ".3f")))
    return {{"ok": True, "message": MESSAGES["passed"].format(case=case)}}


def _fail(message):
    """A failed result with its sentence."""
    return {{"ok": False, "message": message}}
'''

EXPLORABLE = '''\
"""Three scores divided by a temperature before the softmax: low sharpens the weights, high evens them."""

import numpy as np

from course.attention import softmax
from course.explorables.engine import Choice, Explorable, Table

SCORES = np.array([1.0, 2.0, 3.0])


def explorable():
    """One choice of temperature and the table of weights it gives."""
    return Explorable([Choice("temperature", "{temperature}", [0.5, 1.0, 2.0], value=1.0), Table("weights")], state)


def state(temperature):
    """The weights of the three scores at one temperature."""
    weights = softmax(SCORES / temperature)
    rows = [[score, weight] for score, weight in zip(SCORES.tolist(), weights.tolist())]
    return {{"weights": {{"columns": ["{score}", "{weight}"], "rows": rows, "caption": "{weights}"}}}}
'''


LESSON_TEST = '''\
"""The lesson's own test: it builds alone, its cells print in CPython what its page shows, and its checker
passes the reference solution and rejects each known-wrong one with a sentence of its own.

Run it with the suite's tests for this lesson: `make test-fast LESSON=__FOLDER__` as you write (no browser),
`make test LESSON=__FOLDER__` before you commit (browsers and Jupyter too). Add a test here for every claim the
lesson makes (a number its prose states, what a figure shows, a mistake its checker must name).
"""

import contextlib
import html
import io
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from course.exercise import grade
from course.numbers import number, set_language
from coursebuild.lesson import read_lesson
from support import build_site

FOLDER = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(FOLDER))  # the lesson's own package, wherever its folder is (grade() imports the checker)
LESSON = read_lesson(FOLDER / "lesson.md")[0]
EXERCISE = LESSON.exercises[0]
CHECKER = EXERCISE.checker  # the module <package>.checkers.<name> its :checker: option names


@pytest.fixture(autouse=True)
def lesson_language():
    """Numbers are written in the lesson's language, as the build and the page write them."""
    set_language(LESSON.language)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """The lesson's page, built alone from a copy of its folder (its tests left out)."""
    lessons = tmp_path_factory.mktemp("lessons")
    shutil.copytree(FOLDER, lessons / FOLDER.name, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    site = build_site(lessons, tmp_path_factory.mktemp("site"))
    return (site / FOLDER.name / "index.html").read_text(encoding="utf-8")


def printed(page, cell):
    """What the page shows that a cell printed, as plain text."""
    section = re.search(r'<section class="cell" id="cell-{}".*?</section>'.format(cell.number), page, re.S)
    assert section, "cell {} is not in the page".format(cell.number)
    outputs = re.findall(r'<pre class="out out-stdout">(.*?)</pre>', section.group(0), re.S)
    return "".join(html.unescape(output) for output in outputs)


def test_every_shown_cell_prints_in_cpython_what_the_page_shows(page):
    namespace = {"__name__": "__main__"}
    for cell in LESSON.cells:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(cell.code, "<cell {}>".format(cell.number), "exec"), namespace)
        if not {"remove-cell", "remove-output"} & set(cell.tags):
            assert out.getvalue() == printed(page, cell), "cell {}".format(cell.number)


def test_the_reference_solution_passes_every_case():
    result = grade(EXERCISE.solution, CHECKER)
    assert result["passed"] and len(result["results"]) >= 6  # the suite's tests/test_exercises.py asks for six


def test_every_known_wrong_solution_fails_with_a_sentence_of_its_own():
    messages = {}
    for name, code in sorted(EXERCISE.wrong.items()):
        result = grade(code, CHECKER)
        assert not result["passed"], name
        messages[name] = result["results"][-1]["message"]
    assert len(set(messages.values())) == len(messages) >= 2, messages


def test_weights_that_do_not_add_up_to_one_are_told_their_sum():
    namespace = {}
    exec(EXERCISE.wrong["forgets_to_normalise.py"], namespace)
    total = float(namespace["softmax"](np.array([1.0, 2.0, 3.0])).sum())  # the wrong solution's sum, computed here
    message = grade(EXERCISE.wrong["forgets_to_normalise.py"], CHECKER)["results"][-1]["message"]
    assert number(total, ".3f") in message, message
'''


def _lesson_values(text):
    """The template's values: YAML scalars quoted (JSON strings are YAML), the rest as written."""
    quoted = {"q_" + key: json.dumps(text[key], ensure_ascii=False) for key in ("title", "summary", "question",
                                                                                 "quiz_hint", "explanation")}
    options = {"option_{}".format(i): json.dumps(option, ensure_ascii=False) for i, option in enumerate(text["options"], 1)}
    return dict(text, **quoted, **options)


def _python_text(text, indent, width=100):
    """`text` as Python string literals on lines of at most about `width` characters, joined by the parser."""
    pieces, line = [], ""
    for word in re.split(r"(?<= )", text):  # each word keeps the space after it
        if line and indent + len(line) + len(word) > width:
            pieces.append(line)
            line = ""
        line += word
    pieces.append(line)
    return ("\n" + " " * indent).join(json.dumps(piece, ensure_ascii=False) for piece in pieces)


def _checker_words(text):
    """The checker's WORDS entries, one key a line (long sentences continued on the next)."""
    keys = ("case", "name", "raised", "not_one", "wrong", "finite")
    return "\n".join('    "{}": {},'.format(key, _python_text(text[key], len(key) + 8)) for key in keys)


def next_order(lessons_dir):
    """The course's highest `order:` plus one (0 for an empty course)."""
    orders = []
    for path in sorted(lessons_dir.glob("*/lesson.md")):
        found = re.search(r"^order:\s*(-?[0-9]+)\s*$", path.read_text(encoding="utf-8"), re.M)
        if found:
            orders.append(int(found.group(1)))
    return max(orders) + 1 if orders else 0


def next_number(lessons_dir):
    """The number after the last numbered folder in lessons/ (0 for none), so the new folder sorts last."""
    numbers = [int(found.group(1)) for found in (re.match(r"([0-9]+)[-_]", path.name) for path in
                                                  lessons_dir.glob("*") if path.is_dir()) if found]
    return max(numbers) + 1 if numbers else 0


def name_problem(name):
    """Why `name` cannot name a new lesson, or None."""
    if len(name) > MAX_NAME:
        return ("the lesson's name is {} characters long; keep it to {} or fewer (it becomes a folder, the page's URL "
                "and the lesson package's name)".format(len(name), MAX_NAME))
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", name):
        return ("the lesson's name '{}' must be lowercase letters and digits joined by dashes, such as "
                "'softmax-basics' (it becomes the page's URL and the lesson package's name)".format(name))
    problem = shadowed(package_name(name))
    if problem:
        return ("the lesson's name '{}' would make its package '{}', which {}; choose another name, such as "
                "'{}-basics'".format(name, package_name(name), problem, name))
    where = imported_modules().get(package_name(name))
    if where:
        return ("the lesson's name '{}' would make its package '{}', and the suite puts every lesson's folder on its "
                "path, ahead of the module '{}' that the build or the tests import ({}): both would break; choose "
                "another name, such as '{}-basics'".format(name, package_name(name), package_name(name), where, name))
    return None


def imported_modules():
    """{name: where it is} of every top-level module the build and the suite may import, beyond the standard library
    (packages.shadowed covers that): the virtualenv's (site-packages, and any path of sys.path inside it), py/'s and
    tests/'. Computed from what is installed, so a package added to the virtualenv is covered at once."""
    prefix = Path(sys.prefix).resolve()
    paths = [sysconfig.get_paths()[key] for key in ("purelib", "platlib")]
    paths += [entry for entry in sys.path if entry and _inside(Path(entry), prefix) and "site-packages" in entry]
    found = {}
    for folder in [ROOT / "py", ROOT / "tests"] + [Path(path) for path in paths]:
        if folder.is_dir():
            for module in pkgutil.iter_modules([str(folder)]):
                found.setdefault(module.name, str(folder))
    return found


def _inside(path, folder):
    """Whether `path` is `folder` or under it."""
    try:
        path.resolve().relative_to(folder)
    except (OSError, ValueError):
        return False
    return True


def scaffold(lessons_dir, name, language):
    """Write the new lesson's folder; return it. Raises ValueError for a name or folder that cannot be used."""
    problem = name_problem(name)
    if problem:
        raise ValueError(problem)
    folder = lessons_dir / "{:03d}-{}".format(next_number(lessons_dir), name)
    taken = [path.parent for path in lessons_dir.glob("*/lesson.md")
             if package_name(path.parent.name) == package_name(folder.name)]
    if taken:
        raise ValueError("the lesson {} already has the name '{}'; choose another name".format(taken[0], name))
    files = lesson_files(folder, language, next_order(lessons_dir))
    try:
        for path, content in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
    except OSError as error:
        shutil.rmtree(folder, ignore_errors=True)  # no half lesson left behind
        raise ValueError("{} cannot be written ({}); check the lessons folder, or pass another with --lessons".format(
            error.filename or folder, error.strerror or error)) from error
    return folder


def lesson_files(folder, language, order):
    """{path: text} of every file of the new lesson."""
    text = TEXT[language]
    package = folder / package_name(folder.name)
    exercise = folder / "exercises" / "softmax"
    files = {
        folder / "lesson.md": LESSON.format(language=language, order=order, **_lesson_values(text)),
        exercise / "starter.py": STARTER.format(comment=text["starter_comment"]),
        exercise / "solution.py": SOLUTION,
        package / "__init__.py": '"""The own code of the lesson {}."""\n'.format(folder.name),
        package / "checkers" / "__init__.py": "",
        package / "checkers" / "softmax.py": CHECKER.format(doc=text["checker_doc"], language=language,
                                                            words=_checker_words(text)),
        package / "explorables" / "__init__.py": "",
        package / "explorables" / "temperature.py": EXPLORABLE.format(**text),
        folder / "tests" / "test_lesson.py": LESSON_TEST.replace("__FOLDER__", folder.name),
    }
    files.update({exercise / "wrong" / file_name: code for file_name, code in WRONG.items()})
    return files
