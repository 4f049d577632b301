"""The learner's path in headless Chromium: cells that run what they need, a scratch area per challenge, the
course's reading order, honest downloads, quizzes that teach on retry, the editor and the phone."""

import re

import pytest
from playwright.sync_api import expect

from support import ROOT, edit_cell, quiz_option, quiz_options, submit_exercise

ONE_HEAD = "003-odna-holova/index.html"
COURSE_ORDER = ("003-odna-holova", "000-varias-cabezas", "005-position-and-block", "004-ejercicios-atencion",
                "006-a-model-that-writes")
ONLY_IN = {"006-a-model-that-writes": "en"}  # lessons with one edition so far, and its language
FINISHED = re.compile("done|failed")


def test_running_a_later_cell_on_a_fresh_visit_runs_the_cells_above_it_first(page, course_server):
    page.goto(course_server.url(ONE_HEAD))
    edit_cell(page, 4, "print(np.round(emb['bank'], 2))\n")
    page.locator("#cell-4 [data-action=run]").click()
    cell = page.locator("#cell-4")
    expect(cell).to_have_attribute("data-state", FINISHED, timeout=120_000)
    assert "NameError" not in cell.locator(".cell-output").text_content()
    expect(cell).to_have_attribute("data-state", "done")
    for number in (1, 2, 3):
        expect(page.locator("#cell-{}".format(number))).to_have_attribute("data-state", "done")
        expect(page.locator("#cell-{}".format(number))).to_have_attribute("data-run-by", "page")
    expect(cell).to_have_attribute("data-run-by", "learner")
    expect(cell.locator(".run-note")).to_contain_text("1, 2, 3")


def test_one_cell_run_first_is_named_in_the_singular(page, course_server):
    page.goto(course_server.url(ONE_HEAD))
    page.locator("#cell-2 [data-action=run]").click()
    cell = page.locator("#cell-2")
    expect(cell).to_have_attribute("data-state", "done", timeout=120_000)
    expect(cell.locator(".run-note")).to_contain_text("Спершу виконано комірку 1 вище: ця комірка може використовувати те, що "
                                                      "вона визначає")


def test_a_failing_cell_above_stops_the_run_and_the_asked_cell_points_at_it(page, course_server):
    page.goto(course_server.url(ONE_HEAD))
    edit_cell(page, 2, "raise ValueError('broken on purpose')\n")
    page.locator("#cell-3 [data-action=run]").click()
    expect(page.locator("#cell-2")).to_have_attribute("data-state", "failed", timeout=120_000)
    note = page.locator("#cell-3 .run-note")
    expect(note).to_be_visible()
    expect(note.locator("a[href='#cell-2']")).to_have_count(2)
    assert page.locator("#cell-3").get_attribute("data-state") == ""
    assert page.locator("#cell-3 .cell-output").get_attribute("data-origin") == "build"


def test_a_checked_challenge_joins_the_page_so_a_cell_can_try_its_function(page, course_server):
    page.goto(course_server.url("000-varias-cabezas/index.html"))
    exercise = page.locator("#exercise-multi_head")
    expect(exercise.locator(".exercise-namespace")).to_contain_text("Python")
    exercise = submit_exercise(page, "multi_head", "def multi_head(X, Wq, Wk, Wv, Wo, h):\n    return X, None\n")
    expect(exercise).to_have_attribute("data-state", "failed")
    edit_cell(page, 4, "print(multi_head(1, 2, 3, 4, 5, 6))\n")  # the first cell whose code the page shows
    page.locator("#cell-4 [data-action=run]").click()
    expect(page.locator("#cell-4")).to_have_attribute("data-state", "done", timeout=120_000)
    expect(page.locator("#cell-4 .cell-output .out-stdout")).to_have_text("(1, None)\n")


def test_the_index_reads_in_course_order_and_each_lesson_links_its_neighbours(page, course_server):
    page.goto(course_server.url("index.html"))  # an English browser: each lesson in its English edition
    cards = page.locator(".lesson-card")
    expect(cards.locator("h2 a")).to_have_text(["One attention head", "Multi-head attention: one distribution per head",
                                                "Position and the transformer block",
                                                "Exercise sheet: attention and transformers", "A model that writes"])
    expect(cards.locator(".lesson-number")).to_have_text(["Lesson 1.", "Lesson 2.", "Lesson 3.", "Lesson 4.",
                                                          "Lesson 5."])
    expect(cards.nth(0).locator(".start-here")).to_have_text("Start here")
    expect(page.locator(".start-here")).to_have_count(1)
    expect(cards.locator(".lesson-language")).to_have_text(
        ["Read it in: English, Español, Українська"] * 4 + ["Read it in: English"])  # one order on every card
    cards.nth(0).locator("h2 a").click()
    expect(page).to_have_url(re.compile("003-odna-holova/en/index.html$"))
    path = page.locator(".lesson-path")
    expect(path.locator(".path-elsewhere")).to_have_count(0)  # every lesson can be read in English
    path.locator("a[rel=next]").click()
    expect(page).to_have_url(re.compile("000-varias-cabezas/en/index.html$"))
    path.locator("a[rel=next]").click()
    expect(page).to_have_url(re.compile("005-position-and-block/index.html$"))  # its lesson.md is English
    path.locator("a[rel=next]").click()
    expect(page).to_have_url(re.compile("004-ejercicios-atencion/en/index.html$"))
    path.locator("a[rel=next]").click()
    expect(page).to_have_url(re.compile("006-a-model-that-writes/index.html$"))
    expect(path.locator("a[rel=next]")).to_have_count(0)
    expect(path.locator(".path-end")).to_be_visible()
    path.locator("a[rel=prev]").click()
    expect(page).to_have_url(re.compile("004-ejercicios-atencion/en/index.html$"))


@pytest.mark.parametrize("language, index", [("en", "index.html"), ("es", "es/index.html"), ("uk", "uk/index.html")])
def test_every_language_s_index_walks_to_the_last_lesson_without_leaving_the_language(page, course_server, language,
                                                                                       index):
    page.goto(course_server.url(index))
    cards = page.locator(".lesson-card")
    expect(cards).to_have_count(len(COURSE_ORDER))
    with page.expect_navigation():
        cards.first.locator("h2 a").click()
    path = page.locator(".lesson-path")
    walked = []
    while True:
        expect(page.locator("html")).to_have_attribute("lang", language)
        walked.append(re.search(r"/(\d+-[^/]+)/(?:[a-z]{2}/)?index\.html$", page.url).group(1))
        if path.locator("a[rel=next]").count() == 0:
            break
        with page.expect_navigation():
            path.locator("a[rel=next]").click()
    mine = [slug for slug in COURSE_ORDER if ONLY_IN.get(slug, language) == language]
    assert walked == mine  # never into another language without saying so
    rest = COURSE_ORDER[COURSE_ORDER.index(walked[-1]) + 1:]
    if rest:  # the next lesson exists in another language only: the path names it, in that language
        elsewhere = path.locator(".path-elsewhere a")
        expect(elsewhere).to_have_attribute("href", re.compile(rest[0] + "/index.html$"))
        expect(elsewhere).to_have_attribute("lang", ONLY_IN[rest[0]])
    else:
        expect(path.locator(".path-end")).to_be_visible()


def test_the_stated_download_size_is_what_the_progress_bar_counts(page, course_server):
    page.goto(course_server.url(ONE_HEAD))
    stated = re.search(r"(\d+,\d) MB", page.locator(".runtime-status").text_content())
    assert stated, page.locator(".runtime-status").text_content()
    page.locator("#cell-1 .cell-code").hover()
    expect(page.locator(".runtime-status")).to_have_text("Python готовий.", timeout=120_000)
    counted = page.locator(".runtime-progress").evaluate("bar => bar.max")
    assert abs(float(stated.group(1).replace(",", ".")) * 1e6 - counted) <= 0.05 * counted


def test_scrolling_alone_never_starts_the_runtime_download_but_a_tap_does(browser, course_server):
    context = browser.new_context(viewport={"width": 375, "height": 700}, is_mobile=True, has_touch=True)
    page = context.new_page()
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(course_server.url(ONE_HEAD))
    page.wait_for_load_state("networkidle")
    # A finger lands on a cell to scroll (a touch pointerover), and the page scrolls past every cell.
    page.locator("#cell-1").dispatch_event("pointerover", {"pointerType": "touch", "bubbles": True})
    height = page.evaluate("document.documentElement.scrollHeight")
    for top in range(500, height, 500):  # each step waits two frames: the scroll events have been handled
        page.evaluate("top => { scrollTo(0, top); "
                      "return new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done))); }", top)
    assert page.evaluate("scrollY") > height / 2
    page.wait_for_load_state("networkidle")
    assert not [url for url in requests if "/runtime/" in url or "worker" in url]
    with page.expect_request(re.compile(r"/runtime/")):
        page.locator("#cell-2 .cell-name").tap()
    context.close()


def quiz_answer(page, number):
    """Press a quiz's Check and return its verdict line."""
    page.locator("#quiz-{} button[type=submit]".format(number)).click()
    return page.locator("#quiz-{} .quiz-verdict".format(number))


def test_a_wrong_answer_gets_a_hint_and_a_retry_keeps_the_explanation_folded(page, course_server):
    page.goto(course_server.url("000-varias-cabezas/index.html"))
    quiz = page.locator("#quiz-4")
    quiz_option(quiz, "En nada; con las mismas columnas producen los mismos mapas.").check()
    expect(quiz_answer(page, 4)).to_have_text("No es correcto.")
    expect(quiz.locator(".quiz-hint")).to_be_visible()
    explanation = quiz.locator(".quiz-explanation")
    assert quiz.locator(".quiz-hint").text_content().strip() in explanation.text_content()
    expect(explanation).to_be_hidden()
    quiz.locator("[data-action=retry]").click()
    quiz_option(quiz, "Cada cabeza de la segunda lee sólo una cuarta parte de las palabras de la frase.").check()
    expect(quiz_answer(page, 4)).to_have_text("No es correcto.")
    expect(explanation).to_be_hidden()
    quiz.locator("[data-action=explain]").click()
    expect(explanation).to_be_visible()


def test_a_multiple_selection_says_how_many_options_are_marked_wrongly(page, course_server):
    page.goto(course_server.url("000-varias-cabezas/index.html"))
    right = quiz_options(page.locator("#quiz-3"), "correct")
    assert len(right) == 3
    for option in right[:2]:  # two of its three right options: the third is marked wrongly, by its absence
        option.check()
    expect(quiz_answer(page, 3)).to_have_text("No es correcto. Opciones mal marcadas: 1 de 5.")


def test_a_spanish_number_that_reads_two_ways_is_asked_about_not_marked_wrong(page, course_server):
    page.goto(course_server.url("000-varias-cabezas/index.html"))
    page.locator("#quiz-5 input[type=text]").fill("262,144")
    expect(quiz_answer(page, 5)).to_contain_text("¿querías decir el decimal 262,144 o el entero 262144?")
    expect(page.locator("#quiz-5")).to_have_attribute("data-state", "ambiguous")
    expect(page.locator("#quiz-5 .quiz-note")).to_have_text("Se espera la respuesta exacta.")


def test_a_retry_never_unticks_a_self_check_already_earned(page, course_server):
    page.goto(course_server.url("004-ejercicios-atencion/index.html"))
    item = page.locator(".self-check-item").filter(has=page.locator("a[href='#quiz-e4-parametros']"))
    quiz = page.locator("form.quiz").filter(has=page.locator("#quiz-e4-parametros"))
    expect(item).to_have_attribute("data-state", "todo")
    solution = ROOT / "lessons" / "004-ejercicios-atencion" / "exercises" / "parametros_bloque" / "solution.py"
    submit_exercise(page, "parametros_bloque", solution.read_text(encoding="utf-8"))  # the item names it too
    right = page.evaluate("JSON.parse(document.getElementById('page-data').textContent).quizzes"
                          ".find(q => q.key === 'e4-parametros').answer")
    quiz.locator("input[type=text]").fill(str(right))
    quiz.locator("button[type=submit]").click()
    expect(quiz).to_have_attribute("data-state", "right")
    expect(item).to_have_attribute("data-state", "done")
    quiz.locator("[data-action=retry]").click()
    expect(quiz).to_have_attribute("data-state", "")
    expect(item).to_have_attribute("data-state", "done")
    page.reload()
    expect(item).to_have_attribute("data-state", "done")


def test_tab_indents_in_the_editor_and_esc_then_tab_leaves_it_as_the_page_says_once(page, course_server):
    page.goto(course_server.url(ONE_HEAD))
    edit_cell(page, 1, "x = 1")
    editor = page.locator("#cell-1 .cm-content")
    editor.press("Home")
    editor.press("Tab")
    expect(editor).to_have_text("    x = 1")
    editor.press("Shift+Tab")
    expect(editor).to_have_text("x = 1")
    editor.press("Escape")
    editor.press("Tab")
    assert page.evaluate("!document.activeElement.closest('.cm-editor')")
    edit_cell(page, 2, "y = 2")
    expect(page.locator(".editor-keys")).to_have_count(1)
    expect(page.locator(".editor-keys")).to_contain_text("Esc")


def test_a_wrapped_line_keeps_its_indentation_on_a_phone(browser, course_server):
    context = browser.new_context(viewport={"width": 375, "height": 700})
    page = context.new_page()
    page.goto(course_server.url(ONE_HEAD))
    edit_cell(page, 1, "if True:\n        print('" + "word " * 30 + "')")
    # Where each row of the indented line starts: the continuation rows start where its text does.
    starts = page.evaluate("""() => {
        const line = [...document.querySelectorAll('#cell-1 .cm-line')].find(l => l.textContent.includes('word'));
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        let first = walker.nextNode();
        while (!/\\S/.test(first.textContent)) first = walker.nextNode();
        range.setStart(first, first.textContent.search(/\\S/));
        let last = first;
        for (let node = first; node; node = walker.nextNode()) last = node;
        range.setEnd(last, last.textContent.length);
        const rows = new Map();
        for (const rect of range.getClientRects()) {
            const top = Math.round(rect.top);
            rows.set(top, Math.min(rows.has(top) ? rows.get(top) : Infinity, rect.left));
        }
        return [...rows.values()];
    }""")
    assert len(starts) > 2, starts
    assert max(starts) - min(starts) < 2, starts
    context.close()


def test_the_cursor_and_the_check_button_stay_clear_of_the_runtime_bar_while_typing(browser, course_server):
    context = browser.new_context(viewport={"width": 375, "height": 640})
    page = context.new_page()
    page.goto(course_server.url("000-varias-cabezas/index.html"))
    exercise = page.locator("#exercise-multi_head")
    exercise.locator(".cell-code").click()
    editor = exercise.locator(".cm-content")
    expect(editor).to_be_visible()
    editor.press("Control+End")
    for _ in range(12):
        editor.press("Enter")
    page.keyboard.type("pass")
    bar_top = page.locator(".runtime-bar").bounding_box()["y"]
    caret = exercise.locator(".cm-cursor-primary").bounding_box()
    cursor = caret["y"] + caret["height"] if caret else None
    check = exercise.locator("[data-action=check]").bounding_box()
    assert cursor is not None and cursor <= bar_top, (cursor, bar_top)
    assert check["y"] + check["height"] <= bar_top, (check, bar_top)
    context.close()


LESSON_SLUGS = ("003-odna-holova", "000-varias-cabezas", "004-ejercicios-atencion")

# The printed outputs whose lines wrapped: a line of text shown on more rows than the output has lines.
WRAPPED_OUTPUTS = """() => [...document.querySelectorAll('.cell-output pre.out')].filter(pre => {
    const range = document.createRange();
    range.selectNodeContents(pre);
    const rows = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
    return rows.size > pre.textContent.split('\\n').filter(line => line.trim()).length;
}).map(pre => pre.closest('.cell').id)"""

# Every region wider than its box: where it is, whether it scrolls, whether it draws the scroll cue (the
# shadows of style.css, whose backgrounds scroll with the content: attachment "local"), and whether the keyboard
# reaches it (a tab stop of its own, or one inside it).
OVERFLOWING = """() => [...document.querySelectorAll('main *')].filter(el => el.scrollWidth > el.clientWidth + 1
        && getComputedStyle(el).overflowX !== 'visible' && !el.matches('.visually-hidden')
        && getComputedStyle(el).textOverflow !== 'ellipsis').map(el => ({  // cut on purpose; a tap shows it whole
    where: el.className + ' in #' + (el.closest('[id]') || {}).id,
    scrolls: getComputedStyle(el).overflowX === 'auto',
    cue: getComputedStyle(el).backgroundAttachment.includes('local'),
    keyboard: el.tabIndex >= 0 || !!el.querySelector('a[href], button, input, summary, [tabindex="0"]')}))"""


def phone(browser):
    """A page in a 375-px-wide touch screen."""
    return browser.new_context(viewport={"width": 375, "height": 700}, is_mobile=True, has_touch=True)


def test_at_375_px_no_output_table_wraps_and_every_wide_region_scrolls_with_a_cue(browser, course_server):
    context = phone(browser)
    page = context.new_page()
    for slug in LESSON_SLUGS:
        page.goto(course_server.url(slug + "/index.html"))
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        assert page.evaluate(WRAPPED_OUTPUTS) == [], slug
        regions = page.evaluate(OVERFLOWING)
        if slug == "000-varias-cabezas":  # its widest formulas do not fit a phone
            assert any(region["where"].startswith("math block") for region in regions), (slug, regions)
        silent = [region for region in regions if not (region["scrolls"] and region["cue"] and region["keyboard"])]
        assert silent == [], (slug, silent)
    context.close()


def test_an_explorable_table_keeps_its_key_column_in_view_when_scrolled_sideways(browser, course_server):
    context = phone(browser)
    page = context.new_page()
    page.goto(course_server.url(ONE_HEAD))
    view = page.locator("#explorable-1 .xp-view-table:visible").first
    view.scroll_into_view_if_needed()
    assert view.evaluate("el => el.scrollWidth > el.clientWidth")
    view.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    key = view.locator("th[scope=row]:visible").first.bounding_box()
    box = view.bounding_box()
    assert key["x"] >= box["x"] - 1 and key["width"] > 0, (key, box)
    context.close()


def test_the_runtime_bar_says_which_cell_runs_during_run_all_then_ready(page, course_server):
    page.goto(course_server.url(ONE_HEAD))
    page.locator("[data-action=run-all]").click()
    status = page.locator(".runtime-status")
    expect(status).to_have_text(re.compile(r"^Python виконує комірку \d+; у черзі ще \d+\.$"), timeout=120_000)
    last = page.locator(".cell").last
    expect(last).to_have_attribute("data-state", FINISHED, timeout=180_000)
    expect(status).to_have_text("Python готовий.")


def test_on_a_phone_the_running_line_names_the_cell_and_the_queue_and_reads_whole(browser, course_server):
    context = phone(browser)
    page = context.new_page()
    page.goto(course_server.url(ONE_HEAD))
    page.locator("[data-action=run-all]").click()
    status = page.locator(".runtime-status")
    expect(status).to_have_text(re.compile(r"^Python виконує комірку \d+; у черзі ще \d+\.$"), timeout=120_000)
    # The bar wraps its sentence on a phone: nothing of it is cut at the status's edge.
    width, room = status.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert width <= room, (width, room)
    page.locator("[data-action=stop]").click()
    context.close()


def test_a_sixteen_column_heatmap_shows_shades_only_and_keeps_its_numbers_in_the_table(page, course_server):
    page.goto(course_server.url(ONE_HEAD))
    cell = page.locator("section.cell:has(#cell-induction-maps)")
    maps = cell.locator("svg.heatmap")
    expect(maps).to_have_count(4)
    assert maps.first.locator(".hm-col").count() == 16
    expect(cell.locator("svg.heatmap .hm-value")).to_have_count(0)
    expect(cell.locator(".heatmap-table tbody td")).to_have_count(4 * 256)
