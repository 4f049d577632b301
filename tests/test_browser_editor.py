"""The code editor in Chromium: keys that move by the code's own lines where a long line wraps, and the cursor where
a tap landed (the playground lesson, one build shared with the other browser tests)."""

from playwright.sync_api import expect

PLAYGROUND = "01-playground/index.html"
LONG = "numbers = [" + ", ".join(str(n) for n in range(40)) + "]"


def lines_of(page, number):
    return page.locator("#cell-{} .cm-line".format(number)).all_text_contents()


def test_home_end_and_the_arrows_act_on_a_wrapped_lines_whole_line(browser, playground_server):
    context = browser.new_context(viewport={"width": 375, "height": 700})
    page = context.new_page()
    page.goto(playground_server.url(PLAYGROUND))
    page.locator("#cell-1 .cell-code").click()
    editor = page.locator("#cell-1 .cm-content")
    expect(editor).to_be_visible(timeout=30_000)
    editor.press("Control+a")
    page.keyboard.insert_text("x = 1\n" + LONG + "\nprint(x)")
    rows = page.locator("#cell-1 .cm-line")
    assert rows.nth(1).bounding_box()["height"] > 2 * rows.nth(0).bounding_box()["height"]  # it wraps on 3 rows or more
    for key in ("ArrowUp", "End", "Shift+Home"):  # from the end of the code: the long line's end, then select it all
        page.keyboard.press(key)
    page.keyboard.type("y = 2")
    assert lines_of(page, 1) == ["x = 1", "y = 2", "print(x)"]
    page.keyboard.press("Control+z")
    for key in ("Control+End", "Home", "Shift+ArrowUp"):  # from the last line's start, up to the long line's start
        page.keyboard.press(key)
    page.keyboard.insert_text("z = 3\n")
    assert lines_of(page, 1) == ["x = 1", "z = 3", "print(x)"]
    context.close()


# Where the character at `offset` of the highlighted code is drawn: a point in its left quarter, so that the cursor
# lands before it.
CHARACTER_POINT = """(code, offset) => {
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  let left = offset;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (left < node.length) {
      const range = document.createRange();
      range.setStart(node, left);
      range.setEnd(node, left + 1);
      const box = range.getBoundingClientRect();
      return {x: box.left + box.width / 4, y: box.top + box.height / 2};
    }
    left -= node.length;
  }
  return null;
}"""


def test_a_tap_on_the_code_opens_the_editor_with_the_cursor_where_the_finger_was(browser, playground_server):
    context = browser.new_context(viewport={"width": 375, "height": 700}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(playground_server.url(PLAYGROUND))
    code = page.locator("#cell-1 .cell-code pre > code")
    text = code.text_content().rstrip("\n")  # the highlighted code ends its last line; the editor's does not
    offset = text.index("print") + 1  # the "r" of print, on the cell's second line
    point = code.evaluate(CHARACTER_POINT, offset)
    page.touchscreen.tap(point["x"], point["y"])
    expect(page.locator("#cell-1 .cm-content")).to_be_focused(timeout=30_000)
    page.keyboard.type("Z")
    assert "\n".join(lines_of(page, 1)) == text[:offset] + "Z" + text[offset:]
    context.close()
