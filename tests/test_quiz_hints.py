"""Every quiz has a hint for a wrong answer: the build warns about one without, at its line, and every lesson of the
course has one for each quiz."""

from pathlib import Path

import pytest
from test_build import HEADER, build, write_lesson

from coursebuild.lesson import read_lesson
from support import ROOT

EDITIONS = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "lessons").glob("*/lesson*.md"))
ONE_SENTENCE = "```{quiz} numeric\nquestion: How many?\nanswer: 3\ntolerance: 0\nexplanation: Three, by counting.\n```\n"


def test_a_quiz_whose_explanation_is_one_sentence_and_has_no_hint_gets_a_warning_at_its_line(tmp_path, capsys):
    write_lesson(tmp_path, HEADER + "Text.\n\n" + ONE_SENTENCE)
    status, err = build(tmp_path, capsys)
    assert status == 0 and "lesson.md:10: warning: the quiz has no hint for a wrong answer" in err, err
    assert "add 'hint:'" in err


def test_a_quiz_with_a_hint_or_a_longer_explanation_is_accepted(tmp_path, capsys):
    hinted = ONE_SENTENCE.replace("explanation:", "hint: Count them one by one.\nexplanation:")
    longer = ONE_SENTENCE.replace("Three, by counting.", "Count them. There are three.")
    write_lesson(tmp_path, HEADER + "Text.\n\n" + hinted + "\n" + longer)
    status, err = build(tmp_path, capsys)
    assert status == 0 and "no hint" not in err, err


@pytest.mark.parametrize("path", EDITIONS)
def test_every_quiz_of_every_lesson_has_a_hint(path):
    lesson, errors = read_lesson(Path(ROOT / path))
    assert not errors and lesson.quizzes
    assert [quiz.number for quiz in lesson.quizzes if quiz.hint is None] == []
