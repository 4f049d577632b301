"""Regenerate the explorable screenshots in this folder: light and dark themes at 900 px, light at 375 px.

    .venv/bin/python docs/screenshots/take.py [SITE]

SITE is a built site (default: build the course into a temporary folder). Each shot
is one explorable after the clicks listed in SHOTS, with the runtime bar hidden.
"""

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "tests"))

from support import ROOT, Server, build_site, launch  # noqa: E402

# name: (page, explorable's element id, what to click first, as (role, accessible name) pairs)
SHOTS = {
    "rule-heads": ("000-varias-cabezas/index.html", "explorable-1",
                   [("button", "Una cabeza: las cuatro reglas sumadas"), ("radio", "persiguen")]),
}
THEMES = (("light", "light", 900), ("dark", "dark", 900), ("375px", "light", 375))


def shoot(site, shots=SHOTS, out=HERE):
    """Write <out>/explorable-<name>-<theme>.png for every shot."""
    from playwright.sync_api import sync_playwright
    server = Server(site)
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            for name, (page_path, element, clicks) in shots.items():
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


def main(argv=None):
    """Build the course unless a site is given, then take every shot."""
    argv = sys.argv[1:] if argv is None else argv
    if argv:
        shoot(Path(argv[0]))
        return 0
    with tempfile.TemporaryDirectory() as folder:
        shoot(build_site(ROOT / "lessons", Path(folder) / "_site"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
