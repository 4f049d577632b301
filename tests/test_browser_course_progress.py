"""The course as a whole in headless Chromium: an index in each language whose path never leaves it, and the
learner's progress per lesson (quizzes right, challenges passed, where they left off), read from the saved work,
kept through a reload and carried by an export and an import."""

import json
import re

import pytest
from playwright.sync_api import expect

from support import ROOT, Server, build_site, quiz_option, submit_exercise

FIXTURE = ROOT / "tests" / "fixtures" / "saved-work" / "lessons"
SOLUTION = (FIXTURE / "01-saved" / "exercises" / "solution.py").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def saved_server(tmp_path_factory):
    site = build_site(FIXTURE, tmp_path_factory.mktemp("progress") / "_site")
    server = Server(site)
    yield server
    server.close()


def page_data(page):
    return page.evaluate("() => JSON.parse(document.querySelector('body > script#page-data').textContent)")


def index_urls(page, server):
    """Every language's course index, the default one first, as the default index links them."""
    page.goto(server.url("index.html"))
    others = page.locator(".index-languages a").evaluate_all("links => links.map(link => link.href)")
    return [server.url("index.html")] + others


def test_every_languages_index_walks_its_lessons_to_the_last_without_leaving_the_language(page, course_server):
    urls = index_urls(page, course_server)
    assert len(urls) == 3  # English, Spanish, Ukrainian
    for url in urls:
        page.goto(url)
        language = page.locator("html").get_attribute("lang")
        # The cards the index shows in its own language, in reading order: the path must visit exactly these.
        cards = page.locator(".lesson-card")
        own = [cards.nth(i).locator("a.lesson-title").get_attribute("href") for i in range(cards.count())
               if cards.nth(i).locator(".lesson-text").get_attribute("lang") == language]
        assert own, url
        expected = [page.evaluate("href => new URL(href, location.href).href", href) for href in own]
        page.goto(expected[0])
        visited = [page.url]
        while page.locator(".lesson-path a[rel=next]").count():
            # Follow the link's own address, so each step reads the next page only once it has loaded.
            page.goto(page.locator(".lesson-path a[rel=next]").evaluate("link => link.href"))
            visited.append(page.url)
        assert visited == expected, (url, visited)
        for visit in visited:
            page.goto(visit)
            assert page.locator("html").get_attribute("lang") == language, visit
        # The page's header leads back to the index in the page's language.
        page.locator(".site-header a").click()
        expect(page).to_have_url(url)


def test_a_lesson_read_in_a_language_is_listed_in_that_language_and_another_is_marked(page, course_server):
    for url in index_urls(page, course_server):
        page.goto(url)
        language = page.locator("html").get_attribute("lang")
        texts = page.locator(".lesson-card .lesson-text")
        marks = page.locator(".lesson-card .lesson-elsewhere")
        elsewhere = [i for i in range(texts.count()) if texts.nth(i).get_attribute("lang") != language]
        assert marks.count() == len(elsewhere), url


def test_the_index_counts_right_answers_and_passed_challenges_and_says_where_the_learner_left_off(page,
                                                                                                 saved_server,
                                                                                                 tmp_path):
    page.goto(saved_server.url("index.html"))
    progress = page.locator(".lesson-card .lesson-progress")
    expect(progress).to_have_text("Not opened yet in this browser.")
    expect(page.locator(".lesson-resume")).to_be_hidden()

    page.goto(saved_server.url("01-saved/index.html"))
    quizzes = len(page_data(page)["quizzes"])
    quiz = page.locator("#quiz-1")
    quiz_option(quiz, "A").check()
    quiz.locator("button[type=submit]").click()
    expect(quiz.locator(".quiz-verdict")).to_have_text("Right.")
    quiz_option(page.locator("#quiz-2"), "3").check()  # a wrong answer does not count
    page.locator("#quiz-2 button[type=submit]").click()
    expect(page.locator("#quiz-2")).to_have_attribute("data-state", "wrong")
    exercise = submit_exercise(page, "multi_head", SOLUTION)
    expect(exercise).to_have_attribute("data-state", "done")

    counts = "1 of {} questions answered right · 1 of 1 challenges passed".format(quizzes)
    page.goto(saved_server.url("index.html"))
    expect(progress).to_have_text(counts)
    expect(page.locator(".lesson-resume")).to_have_text("You left off at lesson 1: Saved work")
    expect(page.locator(".lesson-card[data-resume=true]")).to_have_count(1)
    page.reload()
    expect(progress).to_have_text(counts)

    with page.expect_download() as download:
        page.locator("[data-action=export]").click()
    receipt = tmp_path / "receipt.json"
    download.value.save_as(receipt)
    assert any(":visit:" in name for name in json.loads(receipt.read_text(encoding="utf-8"))["entries"])
    page.evaluate("() => localStorage.clear()")
    page.reload()
    expect(progress).to_have_text("Not opened yet in this browser.")
    page.locator("input[type=file]").set_input_files(str(receipt))
    expect(page.locator(".work-status")).to_contain_text(re.compile("Saved items in the file"))
    page.reload()
    expect(progress).to_have_text(counts)
    expect(page.locator(".lesson-resume")).to_contain_text("lesson 1")


def test_the_lesson_list_reads_with_no_javascript_and_no_progress_is_claimed(browser, course_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(course_server.url("index.html"))
    expect(page.locator(".lesson-card a.lesson-title").first).to_be_visible()
    expect(page.locator(".lesson-progress").first).to_be_hidden()
    expect(page.locator(".lesson-resume")).to_be_hidden()
    context.close()
