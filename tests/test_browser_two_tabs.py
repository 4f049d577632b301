"""One lesson open in two tabs of headless Chromium: each kind of saved work one tab saves is noticed in the other.
An answer differing from the one shown is asked about, and the version not kept is set aside; a fold, an
exercise's record of checks and hints, the self-check and the index follow quietly."""

import json
import shutil

import pytest
from playwright.sync_api import expect

from support import ROOT, Server, build_site, quiz_option

FIXTURE = ROOT / "tests" / "fixtures" / "saved-work" / "lessons"
LESSON = "01-saved/index.html"
# The fixture's lesson, with a cell whose output gives quiz "pick" away and a self-check of that quiz and the
# exercise.
EXTRA = """
```{code-cell} ipython3
:id: answer
:checks: [pick]
print("The first letter is A")
```

```{self-check}
- text: Pick the first letter.
  quiz: pick
- text: Write the layer.
  exercise: multi_head
```
"""
STORED = "(name) => localStorage.getItem(Object.keys(localStorage).find((key) => key.endsWith(name)))"
SET_ASIDE = """(kind) => Object.keys(localStorage).filter((key) => key.includes(':set-aside:' + kind + '%3A'))
    .map((key) => JSON.parse(localStorage.getItem(key)))"""


@pytest.fixture(scope="module")
def two_tabs_server(tmp_path_factory):
    lessons = tmp_path_factory.mktemp("two-tabs") / "lessons"
    shutil.copytree(FIXTURE, lessons)
    source = lessons / "01-saved" / "lesson.md"
    source.write_text(source.read_text(encoding="utf-8") + EXTRA, encoding="utf-8")
    server = Server(build_site(lessons, lessons.parent / "_site"))
    yield server
    server.close()


def two_tabs(page, server):
    other = page.context.new_page()
    page.goto(server.url(LESSON))
    other.goto(server.url(LESSON))
    return page, other


def option(tab, text):
    """Quiz 1's option that reads `text` (the page shows the options in an order of its own)."""
    return quiz_option(tab.locator("#quiz-1"), text)


def pick(tab, text):
    quiz = tab.locator("#quiz-1")
    option(tab, text).check()
    quiz.locator("button[type=submit]").click()
    return quiz


def stored(tab, name):
    text = tab.evaluate(STORED, name)
    return json.loads(text) if text else None


def test_a_quiz_answered_in_another_tab_is_noticed_and_the_answer_not_kept_is_set_aside(page, two_tabs_server):
    tab, other = two_tabs(page, two_tabs_server)
    expect(pick(tab, "A").locator(".quiz-verdict")).to_have_text("Right.")
    note = other.locator("#quiz-1 .other-tab")
    expect(note).to_contain_text("Another tab of this lesson saved a different answer to this question.")
    assert not option(other, "A").is_checked()  # nothing replaced unasked
    note.locator("[data-action=take-other-tab]").click()
    expect(option(other, "A")).to_be_checked()
    expect(other.locator("#quiz-1 .quiz-verdict")).to_have_text("Right.")
    expect(note).to_have_count(0)
    assert tab.locator("#quiz-1 .other-tab").count() == 0  # taking writes nothing the first tab must hear of

    expect(pick(other, "B")).to_have_attribute("data-state", "wrong")  # the second tab now answers B
    mine = tab.locator("#quiz-1 .other-tab")
    expect(mine).to_be_visible()
    expect(option(tab, "A")).to_be_checked()
    mine.locator("[data-action=keep-this-tab]").click()
    a, b = option(tab, "A").get_attribute("value"), option(tab, "B").get_attribute("value")  # saved by option id
    tab.wait_for_function("(a) => JSON.parse((" + STORED + ")(':quiz:pick')).answer === a", arg=a)
    assert [record["value"]["answer"] for record in tab.evaluate(SET_ASIDE, "quiz")] == [b]  # B stays exported
    expect(other.locator("#quiz-1 .other-tab")).to_be_visible()  # and the second tab is told it was replaced
    expect(option(other, "B")).to_be_checked()

    other.locator("#quiz-1 .other-tab [data-action=keep-this-tab]").click()
    other.locator("#quiz-1 [data-action=retry]").click()  # a retry is a save the other tab hears of too
    expect(tab.locator("#quiz-1 .other-tab")).to_be_visible()
    assert stored(tab, ":quiz:pick")["answer"] is None


def test_the_self_check_counts_an_answer_given_in_another_tab(page, two_tabs_server):
    tab, other = two_tabs(page, two_tabs_server)
    summary = other.locator(".self-check-summary")
    expect(summary).to_have_text("0 of 2 done")
    pick(tab, "A")
    expect(summary).to_have_text("1 of 2 done")
    expect(other.locator(".self-check-item").nth(0)).to_have_attribute("data-state", "done")


def test_a_fold_revealed_in_another_tab_opens_here_without_a_word(page, two_tabs_server):
    tab, other = two_tabs(page, two_tabs_server)
    fold = other.locator("#cell-4 details[data-fold=answer]")
    expect(fold).not_to_have_attribute("open", "")
    tab.locator("#cell-4 details[data-fold=answer] > summary").click()
    expect(fold).to_have_attribute("data-revealed", "true")
    expect(fold).to_have_attribute("open", "")
    assert other.locator("#cell-4 .other-tab, #cell-4 .saved-notice").count() == 0


def test_an_exercises_hints_and_checks_from_another_tab_show_here_and_neither_tab_loses_its_own(page,
                                                                                                two_tabs_server):
    tab, other = two_tabs(page, two_tabs_server)
    hints = "#exercise-multi_head .hints > *"
    tab.locator("#exercise-multi_head [data-action=hint]").click()
    expect(other.locator(hints).nth(0)).to_be_visible()
    expect(other.locator(hints).nth(1)).to_be_hidden()
    other.locator("#exercise-multi_head [data-action=hint]").click()
    expect(tab.locator(hints).nth(1)).to_be_visible()
    assert stored(tab, ":exercise:multi_head")["hints"] == 2
    # A check in the first tab (its state as the exercise saves it): the second shows its verdict and counts it.
    tab.evaluate("""(text) => localStorage.setItem(Object.keys(localStorage).find((key) =>
        key.endsWith(':exercise:multi_head')), text)""", json.dumps({
        "attempts": 1, "result": {"passed": True, "results": [{"ok": True, "message": "the shape is right"}]},
        "hints": 2, "solutionShown": False}))
    expect(other.locator("#exercise-multi_head")).to_have_attribute("data-result", "passed")
    expect(other.locator("#exercise-multi_head .attempts")).to_have_text("Attempts: 1")
    expect(other.locator(".self-check-item").nth(1)).to_have_attribute("data-state", "done")
    assert other.locator("#exercise-multi_head .other-tab").count() == 0


def test_the_index_follows_a_lesson_opened_and_answered_in_another_tab(page, two_tabs_server):
    page.goto(two_tabs_server.url("index.html"))
    progress = page.locator(".lesson-card .lesson-progress")
    expect(progress).to_have_text("Not opened yet in this browser.")
    lesson = page.context.new_page()
    lesson.goto(two_tabs_server.url(LESSON))
    expect(progress).to_have_text("0 of 4 questions answered right · 0 of 1 challenges passed")
    expect(page.locator(".lesson-resume")).to_contain_text("lesson 1")
    pick(lesson, "A")
    expect(progress).to_have_text("1 of 4 questions answered right · 0 of 1 challenges passed")
    expect(page.locator(".lesson-card[data-resume=true]")).to_have_count(1)
