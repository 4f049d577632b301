"""Answer first: the build refuses visible text that states what a fold hides, and hints that hold a quiz's key."""

import textwrap

import pytest

from coursebuild import cli

HEADER = "---\ntitle: T\nlanguage: en\norder: 1\nsummary: S\n---\n\n"

QUIZ = """\
```{quiz} single
:id: largest
question: Which token gets the largest weight?
options:
  - text: The token *bank* itself.
    correct: true
  - text: The clue word *river*.
explanation: |
  A vector's dot product with itself is the largest here. The weights are {glue}`w:.2f`.
```
"""

FOLD = """\
```{code-cell} ipython3
:checks: [largest]
import numpy as np
from course.glue import glue
w = np.array([0.21, 0.27, 0.52])
print("weights:", w)
glue("w", w)
```
"""

EARLIER = """\
```{code-cell} ipython3
:tags: [remove-cell]
import numpy as np
from course.glue import glue
glue("same", np.array([0.21, 0.27, 0.52]))
glue("count", 3)
```
"""

BOOKKEEPING_FOLD = """\
```{code-cell} ipython3
:checks: [largest]
w = np.array([0.21, 0.27, 0.52])
print("weights of", len(w), "tokens:", w)
```

```{code-cell} ipython3
:tags: [remove-cell]
glue("w", w)
```
"""


def build(root, text, capsys):
    """Build one lesson from `text` into root/_site; (exit status, what the build wrote to stderr)."""
    folder = root / "lessons" / "01-lesson"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "lesson.md").write_text(HEADER + textwrap.dedent(text), encoding="utf-8")
    status = cli.main(["--lessons", str(root / "lessons"), "--out", str(root / "_site"), "build"])
    return status, capsys.readouterr().err


def line_of(text, needle):
    """The file line (after the header) of the first line of `text` holding `needle`."""
    lines = (HEADER + text).splitlines()
    return next(number for number, line in enumerate(lines, 1) if needle in line)


def test_prose_after_a_fold_that_quotes_its_glued_value_fails_at_its_line_and_keeps_the_old_site(tmp_path, capsys):
    honest = QUIZ + "\n" + FOLD + "\n:::{answer} What the cell shows\nThe weights are {glue}`w:.2f`.\n:::\n"
    assert build(tmp_path, honest, capsys)[0] == 0
    page = (tmp_path / "_site" / "01-lesson" / "index.html").read_text()
    spoiled = QUIZ + "\n" + FOLD + "\nSo the weights are {glue}`w:.2f`: *bank* wins.\n"
    status, err = build(tmp_path, spoiled, capsys)
    assert status == 1
    assert "lesson.md:{}: {{glue}}`w` states in view what cell 1 folds until quiz 'largest' is answered (the cell " \
           "glues it)".format(line_of(spoiled, "So the weights")) in err, err
    assert (tmp_path / "_site" / "01-lesson" / "index.html").read_text() == page


def test_a_value_glued_by_the_removed_cell_after_a_fold_or_printed_by_the_fold_counts_as_hidden(tmp_path, capsys):
    text = EARLIER + "\n" + QUIZ + "\n" + BOOKKEEPING_FOLD + "\nWeights {glue}`w:.2f`, again {glue}`same:.2f`, of {glue}`count` tokens.\n"
    status, err = build(tmp_path, text, capsys)
    line = line_of(text, "Weights {glue}")
    assert status == 1
    assert "lesson.md:{}: {{glue}}`w` states in view what cell 1 folds".format(line) in err, err
    assert "{glue}`same` states in view what cell 1 folds until quiz 'largest' is answered (the cell prints " \
           "it)" in err, err
    assert "`count`" not in err  # a whole number is no answer: sizes and counts recur everywhere


def test_a_folded_value_may_be_quoted_in_an_answer_or_after_the_next_heading(tmp_path, capsys):
    text = (QUIZ + "\n" + FOLD + "\nCompare the three weights before reading on.\n\n:::{answer} The weights\n"
            "They are {glue}`w:.2f`.\n:::\n\n## Next\n\nEarlier we found {glue}`w:.2f`.\n")
    status, err = build(tmp_path, text, capsys)
    assert status == 0, err


def test_visible_text_after_a_quiz_that_states_a_right_option_fails(tmp_path, capsys):
    text = QUIZ + "\nAs you guessed, the winner is the token *bank* itself.\n\n" + FOLD.replace('glue("w", w)', "")
    text = text.replace(" The weights are {glue}`w:.2f`.", "")
    status, err = build(tmp_path, text, capsys)
    assert status == 1
    assert "lesson.md:{}: this text states the right answer of quiz 1 ('the token bank itself')".format(
        line_of(text, "As you guessed")) in err, err


@pytest.mark.parametrize("quiz, where, held", [
    ("```{quiz} single\nquestion: Which?\noptions:\n  - text: The token *bank* itself.\n    correct: true\n"
     "  - text: The token *river*.\nhint: It is the token bank itself, of course.\nexplanation: Because.\n```\n",
     "It is the token", "the text of a right option ('the token bank itself')"),
    ("```{quiz} single\nquestion: Where does the row go?\noptions:\n  - text: To *this*.\n"
     "  - text: To *this* and *that*, evenly.\n    correct: true\n  - text: To *it*.\n"
     "explanation: |\n  The rule asks for a determiner, and *that* is one as much as *this*. So both.\n```\n",
     "The rule asks", "every term the right option 2 marks (that, this)"),
    ("```{quiz} numeric\nquestion: How many?\nanswer: 262144\ntolerance: 0\n"
     "explanation: There are 262144 of them. Count.\n```\n", "There are", "the answer, 262144"),
    ("```{quiz} truefalse\nquestion: Is it so?\nanswer: false\nexplanation: False. The sum can be an average.\n```\n",
     "False. The sum", "the word 'false'"),
])
def test_a_retry_hint_that_holds_the_quizs_key_is_refused_at_the_hints_line(tmp_path, capsys, quiz, where, held):
    status, err = build(tmp_path, quiz, capsys)
    assert status == 1
    assert "lesson.md:{}: quiz".format(line_of(quiz, where)) in err, err
    assert "quiz 1's retry hint (what a wrong answer shows first: its 'hint:', or else its explanation's first " \
           "sentence) holds its key, {}; write a 'hint:' that points at the reasoning instead".format(held) in err, err


def test_a_hint_that_points_at_the_reasoning_builds(tmp_path, capsys):
    text = ("```{quiz} single\nquestion: Where does the row go?\noptions:\n  - text: To *this*.\n"
            "  - text: To *this* and *that*, evenly.\n    correct: true\n  - text: To *it*.\n"
            "hint: What does the rule ask of the other word, and which words have it?\n"
            "explanation: |\n  The rule asks for a determiner, and *that* is one as much as *this*. So both.\n```\n")
    status, err = build(tmp_path, text, capsys)
    assert status == 0, err
