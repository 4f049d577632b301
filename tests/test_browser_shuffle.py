"""Headless Chromium: a choice quiz shows its options in the order drawn for this browser, the same after a reload,
and an answer given in that order comes back selected after a reload, another seed, or a course update that
reorders the options (saved by option id, not position)."""

import json
import shutil

import pytest
from playwright.sync_api import expect

from support import ROOT, Server, build_site, quiz_data, quiz_option

LESSON = "01-saved/index.html"
ORDER = "(n) => [...document.querySelectorAll('#quiz-' + n + ' .quiz-inputs input')].map((input) => input.value)"


@pytest.fixture(scope="module")
def shuffle_server(tmp_path_factory):
    site = build_site(ROOT / "tests" / "fixtures" / "saved-work" / "lessons", tmp_path_factory.mktemp("shuffle") / "_site")
    server = Server(site)
    yield server
    server.close()


def test_the_order_is_kept_on_reload_and_a_saved_answer_stays_selected(page, shuffle_server):
    page.goto(shuffle_server.url(LESSON))
    data = page.evaluate("() => JSON.parse(document.querySelector('body > script#page-data').textContent)")
    quiz = next(one for one in data["quizzes"] if one["kind"] == "multiple")
    shown = page.evaluate(ORDER, quiz["id"])
    assert sorted(shown) == sorted(quiz["options"])  # every option once
    seed = page.evaluate("() => Object.keys(localStorage).filter((key) => key.includes(':seed:'))")
    assert len(seed) == 1
    # Tick the option shown last (whatever it is in the source) and check.
    element = page.locator("#quiz-{}".format(quiz["id"]))
    element.locator("input[value='{}']".format(shown[-1])).check()
    element.locator("button[type=submit]").click()
    expect(element).to_have_attribute("data-state", "wrong")
    page.reload()
    assert page.evaluate(ORDER, quiz["id"]) == shown
    expect(element.locator("input[value='{}']".format(shown[-1]))).to_be_checked()
    saved = json.loads(page.evaluate("(name) => localStorage.getItem(Object.keys(localStorage).find((key) => "
                                     "key.endsWith(':quiz:' + name)))", quiz["key"]))
    assert saved["answer"] == [shown[-1]]  # by id
    # Another seed may draw another order: the answer still follows its option.
    page.evaluate("() => Object.keys(localStorage).filter((key) => key.includes(':seed:'))"
                  ".forEach((key) => localStorage.setItem(key, JSON.stringify({seed: 'zz000001'})))")
    page.reload()
    expect(element.locator("input[value='{}']".format(shown[-1]))).to_be_checked()  # the answer follows its option


def test_a_saved_answer_survives_a_course_update_that_reorders_the_options(page, tmp_path):
    # The same lesson built twice, the second time with quiz 1's options in another order (C moves from the third
    # place to the first), both served from one origin: the learner's work answers both.
    source = ROOT / "tests" / "fixtures" / "saved-work" / "lessons"
    before, after = tmp_path / "before", tmp_path / "after"
    shutil.copytree(source, before)
    shutil.copytree(source, after)
    lesson = after / "01-saved" / "lesson.md"
    options = "  - text: A\n    correct: true\n  - text: B\n  - text: C\n"
    assert options in lesson.read_text(encoding="utf-8")
    lesson.write_text(lesson.read_text(encoding="utf-8").replace(
        options, "  - text: C\n  - text: B\n  - text: A\n    correct: true\n"), encoding="utf-8")
    site = tmp_path / "site"
    build_site(before, site / "before")
    build_site(after, site / "after")
    server = Server(site)
    try:
        page.goto(server.url("before/" + LESSON))
        quiz = page.locator("#quiz-1")
        chosen = quiz_option(quiz, "C")
        chosen.check()
        quiz.locator("button[type=submit]").click()
        expect(quiz).to_have_attribute("data-state", "wrong")
        option = chosen.get_attribute("value")
        assert quiz_data(quiz)["options"].index(option) == 2

        page.goto(server.url("after/" + LESSON))
        assert quiz_data(quiz)["options"].index(option) == 0  # by position, the answer would now name A, the key
        expect(quiz_option(quiz, "C")).to_be_checked()
        expect(quiz).to_have_attribute("data-state", "wrong")
        expect(quiz.locator(".saved-notice")).to_have_count(0)  # it fits: nothing was set aside
    finally:
        server.close()
