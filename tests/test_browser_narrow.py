"""A phone's width (375 px) in Chromium: controls that wrap to the next line whole, never broken in two."""

import pytest

PAGES = ["index.html", "uk/index.html"]  # the playground's indexes: English, and Ukrainian's longer words


@pytest.mark.parametrize("path", PAGES)
def test_at_375_pixels_the_import_button_is_one_box(browser, playground_server, path):
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    page.goto(playground_server.url(path))
    buttons = page.locator(".work-actions .button")
    assert buttons.count() == 2  # export, and import (a label around the file input)
    for button in buttons.all():
        assert button.evaluate("(button) => button.getClientRects().length") == 1, button.text_content()
    context.close()
