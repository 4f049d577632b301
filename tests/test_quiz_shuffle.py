"""Choice options have stable ids (from their normalised text), which the page saves instead of positions; the build
warns, at a line, about a lesson whose choice keys are mostly first in source order, and notes its true/false balance."""

import json
import re

from test_build import HEADER, build, write_lesson

from coursebuild.blocks.quiz import option_ids


def single(options, key_at, question="Q?"):
    """A single-choice quiz with `options`, the one at `key_at` right."""
    lines = "".join("  - text: {}\n{}".format(text, "    correct: true\n" if index == key_at else "")
                    for index, text in enumerate(options))
    return "```{{quiz}} single\nquestion: {}\noptions:\n{}hint: Think.\nexplanation: E.\n```\n\n".format(question, lines)


def page_quizzes(root):
    page = (root / "_site" / "01-lesson" / "index.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="page-data">(.*?)</script>', page, re.S).group(1))
    return page, data["quizzes"]


def test_option_ids_come_from_the_normalised_text_so_a_reorder_keeps_them_and_duplicates_stay_unique():
    texts = ["Softmax of the scores", "The mean", "A  sum\nof values"]
    ids = option_ids(texts)
    assert len(set(ids)) == 3
    assert option_ids(list(reversed(texts))) == list(reversed(ids))  # reordered: each option keeps its id
    assert option_ids(["softmax of the SCORES", "a sum of values"]) == [ids[0], ids[2]]  # case, wrapping
    assert option_ids(["The mean.", "The mean"])[0] != ids[1]  # other words: another option
    twice = option_ids(["Same", "same", "Other"])
    assert len(set(twice)) == 3 and twice[1] == twice[0] + "-2"


def test_the_page_data_names_options_and_the_key_by_id_and_a_reordered_course_keeps_them(tmp_path, capsys):
    write_lesson(tmp_path, HEADER + single(["Alpha", "Beta", "Gamma"], 1))
    assert build(tmp_path, capsys)[0] == 0
    page, [quiz] = page_quizzes(tmp_path)
    assert quiz["correct"] == [quiz["options"][1]]
    values = re.findall(r'<input type="radio" name="quiz-1" value="([^"]+)">', page)
    assert values == quiz["options"]  # the markup in source order, each input valued by its option's id
    write_lesson(tmp_path, HEADER + single(["Gamma", "Alpha", "Beta"], 2))
    assert build(tmp_path, capsys)[0] == 0
    _, [moved] = page_quizzes(tmp_path)
    assert moved["options"] == [quiz["options"][2], quiz["options"][0], quiz["options"][1]]
    assert moved["correct"] == quiz["correct"]


def test_a_lesson_whose_choice_keys_are_mostly_first_is_warned_at_its_first_such_quiz(tmp_path, capsys):
    text = HEADER + "Text.\n\n" + single(["A", "B"], 0) + single(["C", "D"], 1) + single(["E", "F"], 0)
    text += "```{quiz} truefalse\nquestion: Q?\nanswer: false\nhint: Think.\nexplanation: E.\n```\n"
    write_lesson(tmp_path, text)
    status, err = build(tmp_path, capsys)
    first = text.splitlines().index("```{quiz} single") + 1
    assert status == 0 and "lesson.md:{}: warning: the key of 2 of the lesson's 3 choice quizzes is its first".format(
        first) in err, err
    assert "true/false balance: 0 true, 1 false" in err


def test_a_lesson_whose_keys_are_spread_is_not_warned(tmp_path, capsys):
    write_lesson(tmp_path, HEADER + "Text.\n\n" + single(["A", "B"], 0) + single(["C", "D"], 1))
    status, err = build(tmp_path, capsys)
    assert status == 0 and "first option" not in err and "true/false balance" not in err, err
