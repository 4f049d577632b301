"""Lesson 003's English edition: its exercise files (its own starters and references, lesson.md's known-wrong
solutions under the English function names), and its package writing every sentence in English.

The package (odna_holova) serves both editions and picks its language when it writes, from
course.numbers.current_language(); these tests set English and check that nothing Ukrainian is left.
"""

import asyncio
import concurrent.futures
import contextlib
import io
import json
import re

import pytest

from course import numbers
from course.exercise import grade
from course.explorables import engine
from coursebuild import explorables as build_side
from coursebuild.lesson import read_lesson
from support import ROOT

FOLDER = ROOT / "lessons" / "003-odna-holova"
EXERCISES = ("tower_query", "causal_attention")
EXPLORABLES = ("causal_mask", "query_match", "match_content", "training_walk")
CYRILLIC = re.compile("[\u0400-\u04ff]")
ENGLISH = {exercise.id: exercise for exercise in read_lesson(FOLDER / "lesson.en.md")[0].exercises}

# What each known mistake's English sentence must name (a phrase of its hint).
NAMED = {
    "tower_query": {
        "raw_similarity.py": "still raw similarity",
        "zero_matrix.py": "A zero Wq",
        "query_against_paris.py": "negative Parisness coordinate",
        "column_convention.py": "transpose Wq",
        "reads_the_wrong_row.py": "only the first row of Wq",
        "returns_the_query.py": "a vector of shape (2,)",
        "tie_with_tower.py": "no smaller than its Parisness coordinate",
        "forgets_return.py": "return Wq",
    },
    "causal_attention": {
        "mask_after_softmax.py": "after the softmax",
        "mask_filled_with_zero.py": "exp(0) = 1",
        "diagonal_masked.py": "hid the diagonal too",
        "wrong_triangle.py": "the past instead of the future",
        "no_scaling.py": "not divided by √d_k",
        "scale_by_input_width.py": "√d (the width of X)",
        "no_mask.py": "no mask at all",
        "softmax_over_columns.py": "axis=0",
        "returns_weights_first.py": "returned the weights A first",
        "mixes_inputs_not_values.py": "rows of X",
        "no_max_shift_overflow.py": "NaN",
        "scales_query_in_place.py": "changed Wq",
    },
}


@pytest.fixture(autouse=True)
def english():
    """The English page's language, as its runner sets it; English again afterwards, as every test starts."""
    numbers.set_language("en")
    yield
    numbers.set_language("en")


def read(edition, exercise, name):
    """The text of one exercise file of an edition: 'exercises' (lesson.md's) or 'exercises.en'."""
    return (FOLDER / edition / exercise / name).read_text(encoding="utf-8")


def wrong_names(exercise):
    """The file names of an exercise's known-wrong solutions: lesson.md's, which every edition grades."""
    return sorted(path.name for path in (FOLDER / "exercises" / exercise / "wrong").glob("*.py"))


def failures(code, checker):
    """The sentences of the failed results when `code` is graded."""
    return [item["message"] for item in grade(code, checker)["results"] if not item["ok"]]


def printed(function, *args, **keywords):
    """What a call prints; a coroutine runs to its end in a thread of its own, since Playwright's sync API may hold
    this thread's event loop."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = function(*args, **keywords)
        if asyncio.iscoroutine(result):
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                pool.submit(asyncio.run, result).result()
    return out.getvalue()


@pytest.mark.parametrize("exercise", EXERCISES)
def test_the_english_page_shows_english_files_and_grades_every_known_mistake_of_lesson_md(exercise):
    assert sorted(ENGLISH[exercise].wrong) == wrong_names(exercise) != []
    for name in ["starter.py", "solution.py"]:  # what the English learner reads
        assert not CYRILLIC.search(read("exercises.en", exercise, name)), name


@pytest.mark.parametrize("exercise", EXERCISES)
def test_the_english_reference_passes_in_english_and_the_starter_does_not(exercise):
    checker = "odna_holova.checkers." + exercise
    result = grade(read("exercises.en", exercise, "solution.py"), checker)
    assert result["passed"], result["results"]
    assert all(not CYRILLIC.search(item["message"]) for item in result["results"])
    starter = failures(read("exercises.en", exercise, "starter.py"), checker)
    assert len(starter) == 1 and not CYRILLIC.search(starter[0])


@pytest.mark.parametrize("exercise", EXERCISES)
def test_every_english_known_mistake_fails_with_one_english_sentence_of_its_own(exercise):
    checker = "odna_holova.checkers." + exercise
    assert sorted(NAMED[exercise]) == wrong_names(exercise)
    english = {}
    for name in wrong_names(exercise):
        numbers.set_language("uk")
        ukrainian, = failures(read("exercises", exercise, "wrong/" + name), checker)
        numbers.set_language("en")
        sentence, = failures(ENGLISH[exercise].wrong[name], checker)  # lesson.md's file, as the English page grades it
        assert NAMED[exercise][name] in sentence, (name, sentence)
        assert sentence.endswith(".") and sentence[0].isupper() and "Traceback" not in sentence, sentence
        assert not CYRILLIC.search(sentence) and sentence != ukrainian and CYRILLIC.search(ukrainian), name
        english[name] = sentence
    assert len(set(english.values())) == len(english)


@pytest.mark.parametrize("code, expected", [
    ("def causal_head(X, Wq, Wk, Wv):\n    return None", "None (is the return missing?)"),
    ("def causal_head(X, Wq, Wk, Wv):\n    return X", "a single array of shape (4, 5)"),
    ("def causal_head(X, Wq, Wk, Wv):\n    raise KeyError('k')", "raised KeyError"),
    ("import numpy as np\ndef causal_head(X, Wq, Wk, Wv):\n"
     "    return np.zeros((len(X), 7)), np.eye(len(X))", "its shape is (4, 7)"),
    ("def other():\n    pass", "does not define one"),
    ("def make_wq():\n    return [[1, 2, 3]]", "its shape is (1, 3)"),
    ("def make_wq():\n    return [[float('nan'), 0], [0, 0]]", "NaN or infinities"),
    ("def make_wq():\n    raise KeyError('k')", "make_wq() raised KeyError"),
])
def test_the_checkers_explain_strange_returns_in_one_english_sentence(code, expected):
    checker = "odna_holova.checkers." + ("tower_query" if "make_wq" in code else "causal_attention")
    sentence, = failures(code, checker)
    assert expected in sentence and sentence.endswith(".") and not CYRILLIC.search(sentence)


def test_one_process_grades_in_both_languages_as_each_page_asks():
    code = read("exercises", "tower_query", "wrong/zero_matrix.py")
    numbers.set_language("uk")
    first, = failures(code, "odna_holova.checkers.tower_query")
    numbers.set_language("en")
    second, = failures(code, "odna_holova.checkers.tower_query")
    numbers.set_language("uk")
    assert failures(code, "odna_holova.checkers.tower_query") == [first]
    assert CYRILLIC.search(first) and not CYRILLIC.search(second)


@pytest.mark.parametrize("name", EXPLORABLES)
def test_every_explorable_draws_every_state_and_control_in_english(name):
    module = "odna_holova.explorables." + name
    explorable = engine.load(module)
    states = build_side.compute(explorable)
    strings = json.loads((ROOT / "site" / "i18n" / "en.json").read_text(encoding="utf-8"))
    page = build_side.render(explorable, states, module, 1, strings, "en")
    assert not CYRILLIC.search(page), CYRILLIC.search(page)
    for state in states.values():
        assert not CYRILLIC.search(json.dumps(state, ensure_ascii=False, default=str))
    first = {control.name: 0 for control in explorable.discrete}
    assert not CYRILLIC.search("".join(engine.recompute(module, first, "en")["views"]))
    numbers.set_language("uk")  # the same process, asked by the Ukrainian page, still writes Ukrainian
    assert CYRILLIC.search(json.dumps(engine.load(module).compute(explorable.initial()), ensure_ascii=False,
                                      default=str))


def test_the_english_printouts_of_the_experiments_are_in_english():
    from odna_holova import features, induction, sense
    model = sense.build()
    printed(sense.train, model, passes=1, report=False)
    text = printed(sense.show_predictions, model) + printed(sense.show_changes, sense.build(), model)
    tower = induction.build()
    printed(induction.train, tower, steps=2, report=False)
    text += printed(induction.show_scores, tower) + printed(induction.show_ablations, tower)
    head = features.build()
    printed(features.train, head, steps=2, report=False)
    text += printed(features.show_recovery, head) + printed(features.show_held_out, head)
    text += printed(features.show_interventions, head)
    assert "largest change" in text and "uniform" in text and "held-out" in text
    assert not CYRILLIC.search(text), CYRILLIC.search(text)
    assert "layer 1, head 1" in induction.attention_figure(tower).html()


def test_the_english_figures_are_labelled_in_english():
    from odna_holova import figures
    drawn = [figures.residual_bars([("river bank", [0.5, 0.5], [0.2, 0.1])], ["water", "finance"], "bank"),
             figures.subspace_figure(12288, 128), figures.heads_figure(["the", "river", "bank"], 2, "bank"),
             figures.heads_figure(["the", "river", "bank"], 4, "river"), figures.loss_curve([1.0, 0.5, 0.25], "Loss")]
    markup = "".join(figure.html() for figure in drawn)
    assert "12,288 coordinates" in markup and "residual connection" in markup
    assert not CYRILLIC.search(markup), CYRILLIC.search(markup)
