"""Lesson 003's trained experiments: the walk-through explorable against the toolkit, and the prose's claims."""

import html
import re

import numpy as np
import pytest
from odna_holova import walkthrough
from odna_holova.explorables import training_walk
from playwright.sync_api import expect
from test_browser_explorable import STRINGS, text_of, view_texts
from test_lesson_003 import PAGE, SLUG, ukrainian  # noqa: F401 (ukrainian: a fixture)

from course.explorables import engine
from support import serious_axe_findings

GRADIENTS, UPDATE = 6, 7  # stage positions


def table_rows(module, key, edits=None):
    """The numbers table of one state as CPython draws it: the text of each row's cells."""
    explorable = engine.load(module)
    state = explorable.compute(key, edits)
    markup = explorable.draw(state, key, "uk")[2]
    return [[html.unescape(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", markup)[1:]]


def uk(values):
    """A vector as the explorable writes it with three decimals."""
    return "[" + "; ".join("{:.3f}".format(value).replace(".", ",").replace("-0,000", "0,000")
                           for value in values) + "]"


@pytest.mark.usefixtures("ukrainian")
@pytest.mark.parametrize("update", [0, 1, 9, 15, 31])
def test_the_gradients_stage_shows_every_groups_gradient_from_the_toolkit_and_the_absent_rows_zero(update):
    found = walkthrough.state(update, 0)["stages"][GRADIENTS]
    rows = table_rows("odna_holova.explorables.training_walk", (GRADIENTS, update))
    assert [row[0] for row in rows] == ["E[{}]".format(word) for word in walkthrough.WORDS] + [
        "Wq", "Wk", "Wv", "класифікатор W", "зсув b"]
    for i, word in enumerate(walkthrough.WORDS):
        assert rows[i][1] == uk(found["gradients"]["E"][i])
        assert ("градієнт 0" in rows[i][2]) == (word in found["absent"])
    assert rows[-1][1] == uk(found["gradients"]["b"])
    absent_row = rows[walkthrough.WORDS.index(found["absent"][0])]
    assert absent_row[1] == "[0,000; 0,000]"


@pytest.mark.usefixtures("ukrainian")
def test_the_update_stage_is_the_next_updates_starting_point_and_the_stepper_alternates_sentences():
    after = table_rows("odna_holova.explorables.training_walk", (UPDATE, 3))
    before_next = walkthrough.state(4, 0)["stages"][1]["E"]
    assert [row[1] for row in after[:4]] == [uk(row) for row in before_next]
    status = [engine.load("odna_holova.explorables.training_walk").compute((0, n))["status"][1][1]["s"] for n in range(4)]
    assert status == ["«the river bank»", "«the money bank»"] * 2
    reset = engine.load("odna_holova.explorables.training_walk").compute((1, 0))
    np.testing.assert_allclose([row[1] for row in reset["numbers"]["rows"]],
                               walkthrough.model().parameters()["embedding.E"], atol=1e-6)


@pytest.mark.usefixtures("ukrainian")
def test_an_update_number_typed_past_the_precomputed_ones_is_computed_by_the_same_module():
    late = training_walk.UPDATES + 24
    drawn = engine.recompute("odna_holova.explorables.training_walk", {"stage": 5, "update": 0, "more": late}, "uk")["views"]
    assert "Виконано оновлень: {}".format(late) in text_of(drawn[0])
    loss = walkthrough.state(late, 0)["stages"][5]["loss"]
    assert "{:.4f}".format(loss).replace(".", ",") in text_of(drawn[1])
    far = engine.recompute("odna_holova.explorables.training_walk", {"stage": 0, "update": 0, "more": 10 ** 6}, "uk")["views"]
    assert "Виконано оновлень: {}".format(training_walk.MOST_UPDATES) in text_of(far[0])


def test_the_loss_line_shows_both_sentences_losses_and_marks_the_update_from_which_both_are_right():
    from course.nn.layers import cross_entropy
    line = engine.load("odna_holova.explorables.training_walk").compute((0, 0))["losses"]
    net, right = walkthrough.model(), []
    for update in range(training_walk.UPDATES):
        walkthrough.load(net, walkthrough.parameters_after(update, 0))
        verdicts = []
        for s, (words, target) in enumerate(walkthrough.EXAMPLES):
            logits = net.forward(np.array([walkthrough.WORDS.index(word) for word in words]))[0]
            loss = cross_entropy(logits[None, :], np.array([target]))[0]
            assert line["series"][s][1][update] == pytest.approx(loss)
            verdicts.append(int(logits.argmax()) == target)
        right.append(all(verdicts))
    (mark, _), = line["marks"]
    assert all(right[mark:]) and not right[mark - 1]
    assert engine.load("odna_holova.explorables.training_walk").compute((7, 30))["losses"] == line  # one drawing


@pytest.fixture(scope="module")
def glued(course_site):
    """Every quoted value of the built lesson page: glue name -> the text the reader sees."""
    page = (course_site / SLUG / "index.html").read_text()
    return {name: html.unescape(text) for name, text in
            re.findall(r'<span class="glued" data-glue="([^"]+)">(.*?)</span>', page)}


def number(text):
    """A number the page wrote in Ukrainian."""
    return float(text.replace(",", ".").replace("\u00a0", ""))


def test_the_prose_claims_about_the_walk_and_the_classifiers_hold_for_the_numbers_it_quotes(glued):
    assert number(glued["tw_loss_after"]) < number(glued["tw_loss_first"])
    assert int(glued["tw_settled_river"]) < int(glued["tw_precomputed"])
    assert int(glued["tw_settled_money"]) < int(glued["tw_precomputed"])
    assert glued["sense_count"] == "242" and glued["sense_steps"] == "1200"
    assert glued["labels_right"] == glued["labels_count"] == "6"
    assert number(glued["labels_low"]) > 0.5  # "one pattern": bank reads the context word in every sentence
    assert number(glued["feat_other_moves"]) < 0.1 * min(number(glued["feat_query_moves"]),
                                                          number(glued["feat_value_moves"]))


def test_the_induction_conclusions_follow_from_the_measured_scores_and_ablations(glued):
    assert glued["ind_best_head"].startswith("2.")
    assert number(glued["ind_best_score"]) > 5 * number(glued["ind_baseline"])
    assert number(glued["ind_second_low"]) > 5 * number(glued["ind_baseline"]) > number(glued["ind_first_high"])
    assert glued["ind_hurt_head"] == glued["ind_prev_head"]  # the prose says they are the same head
    assert number(glued["ind_least_loss"]) > number(glued["ind_intact"])


@pytest.mark.usefixtures("ukrainian")
def test_the_walk_steps_forward_back_and_resets_by_keyboard_before_python_loads(page, course_server):
    page.goto(course_server.url(PAGE))
    figure = page.locator("#explorable-3")
    expect(figure).to_have_attribute("data-ready", "true")
    explorable = engine.load("odna_holova.explorables.training_walk")

    def shows(key):
        expect(figure).to_have_attribute("data-key", "-".join(str(k) for k in key))
        drawn = explorable.draw(explorable.compute(key), key, "uk")
        assert view_texts(figure) == [text_of(markup) for markup in drawn]

    stage_next, update_next = figure.get_by_role("button", name=STRINGS["explorable_next"]).all()
    expect(figure.get_by_text("Етап одного оновлення", exact=True)).to_be_visible()
    expect(figure.get_by_text("Оновлення параметрів (крок SGD на наступному реченні)", exact=True)).to_be_visible()
    stage_next.focus()
    for _ in range(GRADIENTS):
        page.keyboard.press("Enter")
    shows((GRADIENTS, 0))
    expect(figure.locator(".xp-view-table .xp-variant:not([hidden])")).to_contain_text("слова немає в реченні")
    update_next.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    shows((GRADIENTS, 2))
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    shows((GRADIENTS, 1))
    leap = figure.get_by_role("button", name="+10 оновлень")
    leap.press("Enter")
    shows((GRADIENTS, 11))
    for _ in range(3):
        leap.press("Enter")
    shows((GRADIENTS, training_walk.UPDATES - 1))  # the leap stops at the last precomputed update
    expect(leap).to_have_attribute("aria-disabled", "true")
    resets = figure.get_by_role("button", name=STRINGS["explorable_reset"]).all()
    resets[1].press("Enter")
    shows((GRADIENTS, 0))
    expect(figure.locator(".xp-view-text").first).to_contain_text("«the river bank»")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_at_375_pixels_the_walks_gradient_table_scrolls_in_its_box_and_axe_finds_nothing_serious(browser, course_server,
                                                                                                   scheme):
    context = browser.new_context(viewport={"width": 375, "height": 800}, bypass_csp=True, color_scheme=scheme)
    page = context.new_page()
    page.goto(course_server.url(PAGE))
    figure = page.locator("#explorable-3")
    expect(figure).to_have_attribute("data-ready", "true")
    stage_next = figure.get_by_role("button", name=STRINGS["explorable_next"]).first
    for _ in range(GRADIENTS):
        stage_next.click()
    expect(figure).to_have_attribute("data-key", "{}-0".format(GRADIENTS))
    table = figure.locator(".xp-view-table")
    assert page.evaluate("(box) => box.scrollWidth > box.clientWidth", table.element_handle())
    table.focus()
    page.keyboard.press("ArrowRight")
    expect(table).not_to_have_js_property("scrollLeft", 0)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    serious = serious_axe_findings(page, "'#explorable-3'")
    context.close()
    assert serious == []


@pytest.mark.usefixtures("ukrainian")
def test_an_update_number_typed_past_the_precomputed_ones_is_computed_in_the_page_by_python(page, course_server):
    page.goto(course_server.url(PAGE))
    figure = page.locator("#explorable-3")
    expect(figure).to_have_attribute("data-ready", "true")
    late = training_walk.UPDATES + 24
    box = figure.get_by_label("Або номер оновлення понад {} (рахує Python)".format(training_walk.UPDATES - 1))
    box.fill(str(late))
    box.press("Enter")
    expect(figure).to_have_attribute("data-shown", "live", timeout=120_000)
    expected = engine.recompute("odna_holova.explorables.training_walk", {"stage": 0, "update": 0, "more": late}, "uk")["views"]
    expect(figure.locator(".xp-view-text").first).to_contain_text("Виконано оновлень: {}".format(late))
    assert view_texts(figure) == [text_of(markup) for markup in expected]
