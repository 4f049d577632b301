"""Screenshots of lesson 003's explorables and trained outputs into docs/screenshots/lesson-003-*.png.

    .venv/bin/python build.py build && .venv/bin/python docs/screenshots/lesson-003-take.py

Light and dark at 900 px, light at 375 px, of the built _site/. The cells' outputs shown are
the build's (the browser reproduces them exactly; tests/test_browser.py checks it).
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "tests"))

from support import ROOT, Server, launch  # noqa: E402

PAGE = "003-odna-holova/index.html"
THEMES = (("light", "light", 900), ("dark", "dark", 900), ("375", "light", 375))
NEXT = "Далі →"
# name: (explorable's element id, clicks as (role, accessible name, which of the matches))
FIGURES = {
    "query-match": ("explorable-1", []),
    "match-content": ("explorable-2", [("button", NEXT, 0)]),
    "training-walk": ("explorable-3", [("button", NEXT, 0)] * 6 + [("button", NEXT, 1)]),
    "causal-mask": ("explorable-4", [("button", "bank river", 0),
                                     ("button", "Каузальна маска (−∞ над діагоналлю)", 0)]),
}
CELLS = {"sense": (15, 16), "features": (18, 18), "labels": (19, 19), "induction": (25, 28)}  # first and last cell


def shoot_figures(page, theme):
    """One shot per explorable after its clicks."""
    for name, (element, clicks) in FIGURES.items():
        figure = page.locator("#" + element + "[data-ready=true]")
        figure.wait_for()
        for role, label, index in clicks:
            figure.get_by_role(role, name=label, exact=True).nth(index).click()
        figure.screenshot(path=str(HERE / "lesson-003-{}-{}.png".format(name, theme)))


def shoot_cells(page, theme, width):
    """One shot per experiment: its cells, from the first one's top to the last one's bottom."""
    for name, (first, last) in CELLS.items():
        page.locator("#cell-{}".format(first)).scroll_into_view_if_needed()
        top = page.locator("#cell-{}".format(first)).bounding_box()
        bottom = page.locator("#cell-{}".format(last)).bounding_box()
        clip = {"x": 0, "y": top["y"] + page.evaluate("scrollY"), "width": width,
                "height": bottom["y"] + bottom["height"] - top["y"]}
        page.screenshot(path=str(HERE / "lesson-003-{}-{}.png".format(name, theme)), clip=clip, full_page=True)


def main():
    """Serve the built site and take every shot in every theme."""
    from playwright.sync_api import sync_playwright
    server = Server(ROOT / "_site")
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            for theme, scheme, width in THEMES:
                context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
                page = context.new_page()
                page.goto(server.url(PAGE))
                page.evaluate("() => { const bar = document.querySelector('.runtime-bar'); if (bar) bar.remove(); }")
                shoot_figures(page, theme)
                shoot_cells(page, theme, width)
                context.close()
            browser.close()
    finally:
        server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
