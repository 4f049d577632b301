"""Regenerate the explorable screenshots in this folder: light and dark themes at 900 px, light at 375 px.

    .venv/bin/python docs/screenshots/take.py

Builds the lessons each shot needs into a temporary folder (the course, and the
fixture lesson that carries lesson 003's explorables until the lesson does). Each
shot is one explorable after the clicks listed in SHOTS, with the runtime bar hidden.
"""

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "tests"))

from support import ROOT, Server, build_site, launch  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "explorables" / "lessons"
# name: (lessons folder, page, explorable's element id, what to click first, as (role, accessible name) pairs)
SHOTS = {
    "rule-heads": (ROOT / "lessons", "000-varias-cabezas/index.html", "explorable-1",
                   [("button", "Una sola cabeza · las cuatro reglas sumadas"), ("radio", "persiguen")]),
    "query-match": (FIXTURE, "01-holova/index.html", "explorable-1", []),
    "match-content": (FIXTURE, "01-holova/index.html", "explorable-2", [("button", "Далі →")]),
    "causal-mask": (FIXTURE, "01-holova/index.html", "explorable-3",
                    [("button", "bank river"), ("button", "Каузальна маска (−∞ над діагоналлю)")]),
}
THEMES = (("light", "light", 900), ("dark", "dark", 900), ("375px", "light", 375))


def shoot(site, shots, out=HERE):
    """Write <out>/explorable-<name>-<theme>.png for every shot of one built site."""
    from playwright.sync_api import sync_playwright
    server = Server(site)
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            for name, (_, page_path, element, clicks) in shots.items():
                for theme, scheme, width in THEMES:
                    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
                    page = context.new_page()
                    page.goto(server.url(page_path))
                    figure = page.locator("#" + element + "[data-ready=true]")
                    figure.wait_for()
                    page.evaluate("() => { const bar = document.querySelector('.runtime-bar'); if (bar) bar.remove(); }")
                    for role, label in clicks:
                        target = figure.get_by_role(role, name=label, exact=True)
                        target.check() if role == "radio" else target.click()
                    figure.screenshot(path=str(out / "explorable-{}-{}.png".format(name, theme)))
                    context.close()
            browser.close()
    finally:
        server.close()


def main():
    """Build each lessons folder the shots need, then take its shots."""
    with tempfile.TemporaryDirectory() as folder:
        for number, lessons in enumerate(sorted({shot[0] for shot in SHOTS.values()})):
            site = build_site(lessons, Path(folder) / str(number) / "_site")
            shoot(site, {name: shot for name, shot in SHOTS.items() if shot[0] == lessons})
    return 0


if __name__ == "__main__":
    sys.exit(main())
