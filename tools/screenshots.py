"""Regenerate the screenshots in docs/screenshots/ from one table of shots.

    .venv/bin/python tools/screenshots.py                 every shot
    .venv/bin/python tools/screenshots.py lesson-004      only the shots whose file name starts so

Each row of SHOTS is one subject: a file name stem, which lessons folder to build, the page, what to
shoot, the clicks to make first, and the themes. A subject is shot once per theme of its row, as
<stem>-<theme suffix>.png. What to shoot is a CSS selector (that element), or a pair of selectors
(from the top of the first to the bottom of the second, across the page). The runtime bar is
removed first, so every shot shows the build's own output. To add a lesson's shots, add rows.
"""

import sys
import tempfile
from collections import namedtuple
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support import Server, build_site, launch  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
LESSONS = ROOT / "lessons"
FIXTURE = ROOT / "tests" / "fixtures" / "explorables" / "lessons"  # lesson 003's explorables, in Ukrainian
NEXT = "Далі →"
MASK = "Причинна маска (−∞ над діагоналлю)"
SWAP_VALUES = "Переставити значення: Wv = swap"

Theme = namedtuple("Theme", "suffix scheme width")
WIDE = (Theme("light", "light", 900), Theme("dark", "dark", 900), Theme("375px", "light", 375))
SHORT = (Theme("light", "light", 900), Theme("dark", "dark", 900), Theme("375", "light", 375))

Shot = namedtuple("Shot", "stem lessons page target clicks themes")
L003, L004 = "003-odna-holova/index.html", "004-ejercicios-atencion/index.html"
L006 = "006-a-model-that-writes/index.html"


def cell(key):
    """The selector of the cell whose id is `key`."""
    return "section.cell:has(#cell-{})".format(key)


def quiz(key):
    """The selector of the quiz whose id is `key`."""
    return "form.quiz:has(#quiz-{})".format(key)


def figure(title):
    """The selector of the figure whose title starts with `title` (for a figure in a cell with no id)."""
    return 'figure.course-figure:has(> figcaption:text-matches("^{}"))'.format(title)


SHOTS = (  # clicks: (role, accessible name, which match) inside the target, in order
    Shot("explorable-rule-heads", LESSONS, "000-varias-cabezas/index.html", "#explorable-1",
         (("button", "Una sola cabeza · las cuatro reglas sumadas", 0), ("radio", "persiguen", 0)), WIDE),
    Shot("explorable-query-match", FIXTURE, "01-holova/index.html", "#explorable-1", (), WIDE),
    Shot("explorable-match-content", FIXTURE, "01-holova/index.html", "#explorable-2",
         (("button", SWAP_VALUES, 0),), WIDE),
    Shot("explorable-causal-mask", FIXTURE, "01-holova/index.html", "#explorable-3",
         (("button", "bank of the river", 0), ("button", MASK, 0)), WIDE),
    Shot("lesson-003-bank-largest", LESSONS, L003, quiz("q-bank-largest"), (), SHORT),
    Shot("lesson-003-bank-update", LESSONS, L003, figure("Вектор bank до і після"), (), SHORT),
    Shot("lesson-003-matrix-form", LESSONS, L003, figure("A: рядок — хто збирає"), (), SHORT),
    Shot("lesson-003-tower-query", LESSONS, L003, "#exercise-tower_query", (), SHORT),
    Shot("lesson-003-subspace", LESSONS, L003, cell("komirka-10") + " figure.course-figure", (), SHORT),
    Shot("lesson-003-query-match", LESSONS, L003, "#explorable-1", (("button", "Проти води", 0),), SHORT),
    Shot("lesson-003-heads", LESSONS, L003, cell("komirka-12") + " figure.course-figure", (), SHORT),
    Shot("lesson-003-match-content", LESSONS, L003, "#explorable-2", (("button", SWAP_VALUES, 0),), SHORT),
    Shot("lesson-003-training-walk", LESSONS, L003, "#explorable-3",
         (("button", NEXT, 0),) * 6 + (("button", "+10 оновлень", 0),), SHORT),
    Shot("lesson-003-sense-forward", LESSONS, L003, cell("sense-forward"), (), SHORT),
    Shot("lesson-003-sense-train", LESSONS, L003, cell("sense-train"), (), SHORT),
    Shot("lesson-003-features", LESSONS, L003, cell("komirka-20"), (), SHORT),
    Shot("lesson-003-labels", LESSONS, L003, cell("komirka-21"), (), SHORT),
    Shot("lesson-003-causal-mask", LESSONS, L003, "#explorable-4",
         (("button", "bank of the river", 0), ("button", MASK, 0)), SHORT),
    Shot("lesson-003-induction", LESSONS, L003, (cell("komirka-27"), cell("komirka-30")), (), SHORT),
    Shot("lesson-004-e1", LESSONS, L004, (quiz("e1-peso-propio"), cell("e1-cuenta")), (), SHORT),
    Shot("lesson-004-parches", LESSONS, L004, "#exercise-parches", (), SHORT),
    Shot("lesson-004-maps", LESSONS, L004, cell("mp-mapas") + " .cell-output", (), SHORT),
    Shot("lesson-004-measures", LESSONS, L004, (quiz("mp-busca"), cell("mp-medidas")), (), SHORT),
    Shot("lesson-005-position-dots", LESSONS, "005-position-and-block/index.html", "#explorable-1",
         (("button", "32", 0),), SHORT),
    Shot("lesson-005-layer-norm", LESSONS, "005-position-and-block/index.html", "#exercise-layer_norm", (), SHORT),
    Shot("lesson-006-cross-entropy", LESSONS, L006, "#exercise-cross_entropy", (), SHORT),
    Shot("lesson-006-samples", LESSONS, L006, (cell("checkpoint"), cell("samples")), (), SHORT),
    # one view of each edition, and the Ukrainian index with the whole course on it
    Shot("lesson-000-uk-rule-heads", LESSONS, "000-varias-cabezas/uk/index.html", "#explorable-1",
         (("button", "Одна голова · чотири правила разом", 0), ("radio", "ганяють", 0)), SHORT),
    Shot("lesson-003-es-tower-query", LESSONS, "003-odna-holova/es/index.html", "#exercise-tower_query", (), SHORT),
    Shot("lesson-004-uk-maps", LESSONS, "004-ejercicios-atencion/uk/index.html", cell("mp-mapas") + " .cell-output",
         (), SHORT),
    Shot("index-uk", LESSONS, "uk/index.html", "ol.lesson-list", (), SHORT),
)


def files(shots=SHOTS):
    """Every file name the table produces."""
    return sorted("{}-{}.png".format(shot.stem, theme.suffix) for shot in shots for theme in shot.themes)


def take(page, shot, theme, out):
    """Write one shot in one theme from an open page."""
    path = str(out / "{}-{}.png".format(shot.stem, theme.suffix))
    if isinstance(shot.target, tuple):
        first, last = (page.locator(selector).first for selector in shot.target)
        first.scroll_into_view_if_needed()
        scroll = page.evaluate("scrollY")
        top, bottom = first.bounding_box(), last.bounding_box()
        clip = {"x": 0, "y": top["y"] + scroll, "width": theme.width,
                "height": bottom["y"] + bottom["height"] - top["y"]}
        page.screenshot(path=path, clip=clip, full_page=True)
        return
    target = page.locator(shot.target).first
    if shot.target.startswith("#explorable"):
        page.locator(shot.target + "[data-ready=true]").wait_for()
    for role, label, index in shot.clicks:
        control = target.get_by_role(role, name=label, exact=True).nth(index)
        control.check() if role == "radio" else control.click()
    target.screenshot(path=path)


def shoot(site, shots, out=OUT):
    """Take every shot of one built site, in each of its themes."""
    from playwright.sync_api import sync_playwright
    server = Server(site)
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            for shot in shots:
                for theme in shot.themes:
                    context = browser.new_context(viewport={"width": theme.width, "height": 900},
                                                  color_scheme=theme.scheme)
                    page = context.new_page()
                    page.goto(server.url(shot.page))
                    page.evaluate("() => { const bar = document.querySelector('.runtime-bar'); if (bar) bar.remove(); }")
                    take(page, shot, theme, out)
                    context.close()
            browser.close()
    finally:
        server.close()


def main(argv=None):
    """Build each lessons folder the chosen shots need, then take them."""
    prefix = (sys.argv[1:] if argv is None else argv) or [""]
    chosen = [shot for shot in SHOTS if shot.stem.startswith(prefix[0])]
    with tempfile.TemporaryDirectory() as folder:
        for number, lessons in enumerate(sorted({shot.lessons for shot in chosen})):
            site = build_site(lessons, Path(folder) / str(number) / "_site")
            shoot(site, [shot for shot in chosen if shot.lessons == lessons])
    return 0


if __name__ == "__main__":
    sys.exit(main())
