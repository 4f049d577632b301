"""`build.py new NAME --language LANG`: a lesson folder that builds and passes its own checks at once.

    lessons/<order>-NAME/
        lesson.md                      front matter, prose, a cell, a quiz, an exercise and an explorable
        exercises/softmax/             starter.py, solution.py, wrong/forgets_to_normalise.py
        <package>/                     the lesson's own code (NAME with dashes as underscores)
            checkers/softmax.py        the exercise's checker
            explorables/temperature.py the explorable

`order` is the course's highest plus one. The texts are written in the chosen language; the author
replaces them with the lesson's own.
"""

import json
import re

from .lesson import package_name

TEXT = {
    "en": {
        "title": "A new lesson",
        "summary": "What this lesson teaches, in one sentence.",
        "intro": "Three scores become three weights that sum to one: that is what a softmax does.",
        "after_cell": "The largest weight is {glue}`largest:.3f`; it belongs to the largest score.",
        "question": "Which score gets the largest weight?",
        "options": ("The largest score.", "The smallest score.", "All get the same weight."),
        "explanation": "The exponential keeps the order of the scores, so the largest score gets the largest weight.",
        "prompt": "Write `softmax(scores)`: the weights $e^{s_i} / \\sum_j e^{s_j}$ of a vector of scores.",
        "hint": "Subtract the largest score first: the weights stay the same and `np.exp` cannot overflow.",
        "caption": "A temperature divides the scores before the softmax: low sharpens the weights, high evens them.",
        "temperature": "Temperature",
        "weights": "Weights",
        "score": "Score",
        "weight": "Weight",
        "starter_comment": "# Return the softmax of a 1-D array of scores.",
        "checker_doc": "Checker for the softmax exercise: softmax(scores) -> weights.",
        "no_array": "For {case} an array of {count} weights was expected, but your function returned {value}.",
        "not_one": "For {case} the weights add up to {total}, not 1; divide by the sum of the exponentials.",
        "wrong": "For {case} weight {index} should be {expected}, but it is {actual}; take the exponential of each "
                 "score before dividing.",
        "case": "scores {scores}",
    },
    "es": {
        "title": "Una lección nueva",
        "summary": "Lo que enseña esta lección, en una frase.",
        "intro": "Tres puntuaciones se convierten en tres pesos que suman uno: eso hace un softmax.",
        "after_cell": "El peso mayor es {glue}`largest:.3f`; corresponde a la puntuación mayor.",
        "question": "¿Qué puntuación recibe el peso mayor?",
        "options": ("La puntuación mayor.", "La puntuación menor.", "Todas reciben el mismo peso."),
        "explanation": "La exponencial conserva el orden de las puntuaciones: la mayor recibe el peso mayor.",
        "prompt": "Escribe `softmax(puntuaciones)`: los pesos $e^{s_i} / \\sum_j e^{s_j}$ de un vector de "
                  "puntuaciones.",
        "hint": "Resta antes la puntuación mayor: los pesos no cambian y `np.exp` no se desborda.",
        "caption": "Una temperatura divide las puntuaciones antes del softmax: baja, afila los pesos; alta, "
                   "los iguala.",
        "temperature": "Temperatura",
        "weights": "Pesos",
        "score": "Puntuación",
        "weight": "Peso",
        "starter_comment": "# Devuelve el softmax de un array 1-D de puntuaciones.",
        "checker_doc": "Corrector del ejercicio del softmax: softmax(puntuaciones) -> pesos.",
        "no_array": "Con {case} se esperaba un array de {count} pesos, pero tu función devolvió {value}.",
        "not_one": "Con {case} los pesos suman {total}, no 1; divide por la suma de las exponenciales.",
        "wrong": "Con {case} el peso {index} debería ser {expected}, pero es {actual}; toma la exponencial de cada "
                 "puntuación antes de dividir.",
        "case": "las puntuaciones {scores}",
    },
    "uk": {
        "title": "Новий урок",
        "summary": "Чого вчить цей урок, одним реченням.",
        "intro": "Три оцінки стають трьома вагами, що в сумі дають одиницю: саме це робить softmax.",
        "after_cell": "Найбільша вага — {glue}`largest:.3f`; вона належить найбільшій оцінці.",
        "question": "Яка оцінка отримує найбільшу вагу?",
        "options": ("Найбільша оцінка.", "Найменша оцінка.", "Усі отримують однакову вагу."),
        "explanation": "Експонента зберігає порядок оцінок, тож найбільша оцінка отримує найбільшу вагу.",
        "prompt": "Напишіть `softmax(scores)`: ваги $e^{s_i} / \\sum_j e^{s_j}$ вектора оцінок.",
        "hint": "Спершу відніміть найбільшу оцінку: ваги не зміняться, а `np.exp` не переповниться.",
        "caption": "Температура ділить оцінки перед softmax: низька загострює ваги, висока вирівнює їх.",
        "temperature": "Температура",
        "weights": "Ваги",
        "score": "Оцінка",
        "weight": "Вага",
        "starter_comment": "# Поверніть softmax одновимірного масиву оцінок.",
        "checker_doc": "Перевірка вправи про softmax: softmax(scores) -> ваги.",
        "no_array": "Для {case} очікувався масив із {count} ваг, а ваша функція повернула {value}.",
        "not_one": "Для {case} ваги в сумі дають {total}, а не 1; поділіть на суму експонент.",
        "wrong": "Для {case} вага {index} має бути {expected}, а вона {actual}; візьміть експоненту кожної оцінки, "
                 "перш ніж ділити.",
        "case": "оцінок {scores}",
    },
}

LESSON = """\
---
title: {q_title}
language: {language}
order: {order}
summary: {q_summary}
---

{intro}

```{{code-cell}} ipython3
:id: weights
import numpy as np

scores = np.array([1.0, 2.0, 3.0])
weights = np.exp(scores) / np.exp(scores).sum()
print(np.round(weights, 3))
```

```{{code-cell}} ipython3
:tags: [remove-cell]
from course.glue import glue

glue("largest", float(weights.max()))
```

{after_cell}

```{{quiz}} single
:id: largest
question: {q_question}
options:
  - text: {option_1}
    correct: true
  - text: {option_2}
  - text: {option_3}
explanation: {q_explanation}
```

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

WRONG = """\
import numpy as np


def softmax(scores):
    return np.exp(scores - scores.max())
"""

CHECKER = '''\
"""{doc}"""

import numpy as np

from course.checkers.common import Phrasebook
from course.numbers import number

FUNCTION = "softmax"
CASES = ([1.0, 2.0, 3.0], [0.5, -1.0], [10.0, 10.0, 10.0, 10.0], [800.0, 799.0])
SAY = Phrasebook("{language}", signature="scores", pair="", ending="weights", advice="", shapes="", finite="")
MESSAGES = SAY.messages()
SENTENCES = {sentences!r}


def check(function):
    """One result per case, in order, up to and including the first that fails."""
    results = []
    for scores in CASES:
        results.append(_check_case(function, np.array(scores)))
        if not results[-1]["ok"]:
            break
    return results


def _check_case(function, scores):
    """A passed result, or the first problem with the weights as one sentence."""
    case = SENTENCES["case"].format(scores=number(scores.tolist(), ".1f"))
    expected = np.exp(scores - scores.max()) / np.exp(scores - scores.max()).sum()
    weights = function(scores.copy())
    if not isinstance(weights, np.ndarray) or weights.shape != scores.shape:
        return {{"ok": False, "message": SENTENCES["no_array"].format(case=case, count=len(scores),
                                                                   value=SAY.describe(weights))}}
    if not np.isclose(weights.sum(), 1.0):
        return {{"ok": False, "message": SENTENCES["not_one"].format(case=case, total=number(float(weights.sum()),
                                                                                           ".3f"))}}
    for index, (got, want) in enumerate(zip(weights, expected)):
        if not np.isclose(got, want, atol=1e-9):
            return {{"ok": False, "message": SENTENCES["wrong"].format(
                case=case, index=index, expected=number(float(want), ".3f"), actual=number(float(got), ".3f"))}}
    return {{"ok": True, "message": MESSAGES["passed"].format(case=case)}}
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


def _lesson_values(text):
    """The template's values: YAML scalars quoted (JSON strings are YAML), the rest as written."""
    quoted = {"q_" + key: json.dumps(text[key], ensure_ascii=False) for key in ("title", "summary", "question",
                                                                                 "explanation")}
    options = {"option_{}".format(i): json.dumps(option, ensure_ascii=False) for i, option in enumerate(text["options"], 1)}
    return dict(text, **quoted, **options)


def next_order(lessons_dir):
    """The course's highest `order:` plus one (0 for an empty course)."""
    orders = []
    for path in sorted(lessons_dir.glob("*/lesson.md")):
        found = re.search(r"^order:\s*(-?[0-9]+)\s*$", path.read_text(encoding="utf-8"), re.M)
        if found:
            orders.append(int(found.group(1)))
    return max(orders) + 1 if orders else 0


def scaffold(lessons_dir, name, language):
    """Write the new lesson's folder; return it. Raises ValueError for a name or folder that cannot be used."""
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", name):
        raise ValueError("the lesson's name '{}' must be lowercase letters and digits joined by dashes, such as "
                         "'softmax-basics' (it becomes the page's URL and the lesson package's name)".format(name))
    order = next_order(lessons_dir)
    folder = lessons_dir / "{:03d}-{}".format(order, name)
    taken = [path.parent for path in lessons_dir.glob("*/lesson.md")
             if package_name(path.parent.name) == package_name(folder.name)]
    if taken:
        raise ValueError("the lesson {} already has the name '{}'; choose another name".format(taken[0], name))
    text = TEXT[language]
    package = folder / package_name(folder.name)
    files = {
        folder / "lesson.md": LESSON.format(language=language, order=order, **_lesson_values(text)),
        folder / "exercises" / "softmax" / "starter.py": STARTER.format(comment=text["starter_comment"]),
        folder / "exercises" / "softmax" / "solution.py": SOLUTION,
        folder / "exercises" / "softmax" / "wrong" / "forgets_to_normalise.py": WRONG,
        package / "__init__.py": '"""The own code of the lesson {}."""\n'.format(folder.name),
        package / "checkers" / "__init__.py": "",
        package / "checkers" / "softmax.py": CHECKER.format(
            doc=text["checker_doc"], language=language,
            sentences={key: text[key] for key in ("no_array", "not_one", "wrong", "case")}),
        package / "explorables" / "__init__.py": "",
        package / "explorables" / "temperature.py": EXPLORABLE.format(**text),
    }
    for path, content in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return folder
