"""Answer first, as a learner reads every page of the course in Chromium: the text in view after a folded answer,
up to the next heading, shows none of the numbers the fold hides."""

import pytest

from coursebuild.lesson import edition_of
from support import ROOT

PAGES = sorted("{}/{}index.html".format(path.parent.name, "{}/".format(edition_of(path)) if edition_of(path) else "")
               for path in (ROOT / "lessons").glob("*/lesson*.md")
               if path.name == "lesson.md" or edition_of(path))

# For each closed answer fold: the numbers its output prints (two decimals or more, as Python prints them, and
# as the page's language writes them), and the prose a reader sees after its cell up to the next heading (a
# closed <details> shows only its summary, which innerText follows; other cells' outputs are not prose).
SPOILED = """(separator) => [...document.querySelectorAll('details[data-fold=answer]:not([open])')].map((fold) => {
    const cell = fold.closest('section.cell');
    const printed = [...fold.querySelectorAll('pre.out')].map((pre) => pre.textContent).join(' ');
    const numbers = [...new Set(printed.match(/-?\\d+\\.\\d{2,}/g) || [])];
    let seen = '';
    for (let next = cell.nextElementSibling; next && !/^H[1-6]$/.test(next.tagName); next = next.nextElementSibling) {
        // An explorable's figure is for trying, and starts from a state of its own: only its caption is prose.
        const prose = next.matches('figure.explorable') ? next.querySelector('figcaption') : next;
        if (!next.matches('section.cell')) seen += ' ' + prose.innerText;
    }
    const shown = numbers.filter((n) => seen.includes(n) || seen.includes(n.replace('.', separator)));
    return [cell.getAttribute('aria-label'), shown];
}).filter(([, shown]) => shown.length)"""


def test_the_course_has_pages_with_answer_folds_in_every_edition():
    assert len(PAGES) >= 6 and any("/en/" in page for page in PAGES)


@pytest.mark.parametrize("path", PAGES)
def test_the_text_after_each_fold_shows_none_of_the_numbers_it_hides(page, course_server, path):
    page.goto(course_server.url(path))
    folds = page.locator("details[data-fold=answer]").count()
    separator = "." if "/en/" in path else ","
    assert page.evaluate(SPOILED, separator) == [], path
    assert folds >= 1, path  # every lesson folds a quiz's answer
