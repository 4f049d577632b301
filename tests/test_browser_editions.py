"""A lesson's editions in Chromium: the switch is reached by keyboard, each edition keeps its own answers, and the
index opens each lesson in the browser's language."""

import re

import pytest
from playwright.sync_api import expect

from support import ROOT, quiz_option, serve_built_site

LESSONS = ROOT / "tests" / "fixtures" / "editions" / "lessons"


@pytest.fixture(scope="module")
def editions_server(tmp_path_factory):
    yield from serve_built_site(LESSONS, tmp_path_factory.mktemp("editions") / "_site")


def switch_by_keyboard(page, language):
    """Tab from the top of the page to the link of the edition in `language`, and follow it with Enter."""
    link = page.locator('nav.editions a[hreflang="{}"]'.format(language))
    for _ in range(12):
        page.keyboard.press("Tab")
        if link.evaluate("element => element === document.activeElement"):
            break
    else:
        raise AssertionError("twelve presses of Tab never reached the {} edition's link".format(language))
    page.keyboard.press("Enter")


def answer(page, option, verdict):
    quiz = page.locator("#quiz-1")
    quiz_option(quiz, option).check()
    quiz.locator("button[type=submit]").click()
    expect(quiz.locator(".quiz-verdict")).to_have_text(verdict)


def test_the_switch_is_reached_by_keyboard_and_each_edition_keeps_its_own_answer(page, editions_server):
    page.goto(editions_server.url("01-una/index.html"))
    answer(page, "Dos.", "Correcto.")
    switch_by_keyboard(page, "en")
    expect(page).to_have_url(re.compile(r"/01-una/en/index\.html$"))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(quiz_option(page.locator("#quiz-1"), "Two.")).not_to_be_checked()  # the Spanish answer is the Spanish page's
    answer(page, "One.", "Not quite.")
    switch_by_keyboard(page, "es")
    expect(page).to_have_url(re.compile(r"/01-una/index\.html$"))
    expect(quiz_option(page.locator("#quiz-1"), "Dos.")).to_be_checked()
    expect(page.locator("#quiz-1 .quiz-verdict")).to_have_text("Correcto.")
    switch_by_keyboard(page, "en")
    expect(quiz_option(page.locator("#quiz-1"), "One.")).to_be_checked()


@pytest.mark.parametrize("locale, href, title", [
    ("es-ES", "01-una/index.html", "Una lección"),
    ("en-GB", "01-una/en/index.html", "A lesson"),
    ("de-DE", "01-una/en/index.html", "A lesson"),  # no German edition: the index's own language
])
def test_the_index_opens_each_lesson_in_the_browsers_language(browser, editions_server, locale, href, title):
    context = browser.new_context(locale=locale)
    try:
        page = context.new_page()
        page.goto(editions_server.url("index.html"))
        card = page.locator('.lesson-card[data-lesson="01-una"]')
        expect(card.locator("a.lesson-title")).to_have_attribute("href", href)
        expect(card.locator("a.lesson-title")).to_have_text(title)
        expect(page.locator('.lesson-card[data-lesson="02-otra"] a.lesson-title')).to_have_text("Тільки українською")
    finally:
        context.close()


def test_where_the_path_goes_through_a_lesson_without_this_language_the_page_links_each_of_its_editions(
        page, editions_server):
    page.goto(editions_server.url("01-una/en/index.html"))
    path = page.locator(".lesson-path")
    expect(path.locator("a[rel=next]")).to_have_count(0)  # no later lesson can be read in English
    elsewhere = path.locator(".path-elsewhere")
    expect(elsewhere).to_have_text(re.compile(r"continues with lesson 2, in another language \(Українська\)"))
    elsewhere.locator("a[lang=uk]").click()
    expect(page).to_have_url(re.compile("02-otra/index.html$"))
    expect(path.locator(".path-elsewhere")).to_contain_text("Español, English")  # lesson 1 before it, in either
    expect(path.locator(".path-end")).to_be_visible()
