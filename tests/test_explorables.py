"""The explorable engine (declarations, states, drawings, the worker's recompute) and lesson 000's rule-heads."""

import inspect
import json
import re
import sys
from html.parser import HTMLParser

import numpy as np
import pytest

import course.explorables
from course.attention import softmax
from course.display import Figure, heatmap
from course.explorables import call, engine
from course.explorables.engine import Choice, Explorable, Matrix, Radio, Stepper, Table, Text, Value
from course.explorables.rule_heads import WORDS, maps, pulled
from coursebuild import explorables as build_side
from coursebuild.blocks.explorable import known_modules
from coursebuild.glue_role import format_value
from coursebuild.sanitize import ATTRIBUTES, ELEMENTS
from support import ROOT, build_site

HEAD_1, HEAD_2, HEAD_3, HEAD_4, SUMMED = range(5)
word = WORDS.index
STRINGS = json.loads((ROOT / "site" / "i18n" / "es.json").read_text())


@pytest.fixture(scope="module")
def weights():
    return maps()


def test_every_row_of_every_map_sums_to_one(weights):
    assert weights.shape == (5, len(WORDS), len(WORDS))
    assert np.allclose(weights.sum(axis=-1), 1.0)


def test_the_five_maps_differ(weights):
    for a in range(5):
        for b in range(a + 1, 5):
            assert not np.allclose(weights[a], weights[b])


def test_in_the_row_of_duerme_no_head_finds_the_subject_but_the_sum_does(weights):
    row = word("duerme")
    assert pulled(weights[HEAD_1][row]) == ["ratón", "gatos"]
    singulars = pulled(weights[HEAD_2][row])
    assert "ratón" not in singulars and sorted(singulars) == ["duerme", "el", "pequeño"]
    assert pulled(weights[HEAD_3][row]) is None and pulled(weights[HEAD_4][row]) is None
    assert pulled(weights[SUMMED][row]) == ["ratón"]


def test_in_the_row_of_persiguen_the_sum_nearly_loses_raton_but_head_1_keeps_it(weights):
    row = word("persiguen")
    assert pulled(weights[SUMMED][row]) == ["gatos"]
    assert weights[SUMMED][row][word("ratón")] < weights[SUMMED][row][word("gatos")] / 4
    assert weights[HEAD_1][row][word("ratón")] == pytest.approx(weights[HEAD_1][row][word("gatos")])
    assert weights[HEAD_1][row][word("ratón")] > 3 * weights[SUMMED][row][word("ratón")]


def test_the_prose_quotes_the_same_numbers_the_maps_hold(weights):
    glue = engine.load("rule_heads").glue()
    assert glue["rh_duerme_h1"] == weights[HEAD_1][word("duerme")][word("ratón")]
    assert glue["rh_persiguen_suma_raton"] == weights[SUMMED][word("persiguen")][word("ratón")]


def test_the_worker_entry_point_calls_only_course_functions():
    views = call("course.explorables.engine:recompute", {"module": "rule_heads", "values": {"map": 4, "row": 4},
                                                         "language": "es"})["views"]
    assert "persiguen" in views[1] and "gatos, 0,43" in views[1]
    with pytest.raises(ValueError):
        call("os:getcwd", {})
    with pytest.raises(ValueError, match="not the name of a module"):
        engine.load("../os")


def test_the_panel_of_a_row_names_the_words_it_pulls_toward_with_their_weights(weights):
    explorable = engine.load("rule_heads")
    state = explorable.compute((SUMMED, word("persiguen")))
    text = Text("panel").render(state["panel"], "es")
    assert "«persiguen»" in text
    assert "Una cabeza: las cuatro reglas sumadas: gatos, {}".format(
        format_value(float(weights[SUMMED][word("persiguen")].max()), ".2f", "es")) in text
    assert "¿Es un sustantivo?: ratón y gatos" in text


# The engine


@pytest.mark.parametrize("module", known_modules())
def test_every_explorable_declares_itself_without_mistakes_and_computes_every_state(module):
    explorable = engine.load(module)
    assert explorable.problems() == []
    states = build_side.compute(explorable)
    assert set(states) == set(explorable.keys()) and explorable.initial() in states


@pytest.mark.parametrize("module", known_modules())
def test_the_worker_draws_the_same_views_the_build_precomputed(module):
    explorable = engine.load(module)
    for key in explorable.keys():
        values = {control.name: index for control, index in zip(explorable.discrete, key)}
        drawn = engine.recompute(module, values, "uk")["views"]
        assert drawn == explorable.draw(explorable.compute(key), key, "uk")


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attributes = set(), set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes |= {name for name, _ in attrs}


@pytest.mark.parametrize("module", known_modules())
def test_every_drawing_survives_the_pages_whitelist_so_worker_answers_are_shown_whole(module):
    explorable = engine.load(module)
    seen = _Tags()
    for key, state in build_side.compute(explorable).items():
        for markup in explorable.draw(state, key, "en"):
            seen.feed(markup)
    assert seen.tags <= ELEMENTS and seen.attributes <= ATTRIBUTES


@pytest.mark.parametrize("language", ["en", "es", "uk"])
@pytest.mark.parametrize("value, spec", [(0.5, ".2f"), (-1.25, ".3f"), (12345.678, ".1f"), (1234.5, ".0f"),
                                         (0.6262, ".1%"), (3.0, ".2f"), (-0.004, ".1f")])
def test_explorables_write_numbers_as_the_prose_does(value, spec, language):
    expected = format_value(value, spec, language)
    if value == -0.004:
        expected = expected.lstrip("-")  # a value that rounds to zero loses its sign in a figure
    assert engine.format_number(value, spec, language) == expected


def test_a_mistaken_declaration_names_the_line_that_declared_the_part():
    line = inspect.currentframe().f_lineno + 1
    explorable = Explorable([Choice("c", "C", [], value=None), Text("t")], lambda c: {"t": []})
    (origin, message), = explorable.problems()
    assert origin == (__file__, line) and "'c' has no options" in message


def test_a_state_that_misses_a_view_is_reported_at_the_views_declaration():
    explorable = Explorable([Radio("r", "R", ["a", "b"]), Table("rows")], lambda r: {"rows": {"columns": []}}
                            if r == "b" else {})
    with pytest.raises(engine.DeclarationError, match=r"test_explorables.py:\d+: state\(r='a'\) has no 'rows'"):
        build_side.compute(explorable)


def test_a_preset_must_exist_for_every_option_it_follows():
    explorable = Explorable([Choice("p", "P", ["x", "y"]),
                             Matrix("m", "M", ["a"], ["b"], [[0.0]], follows="p", presets={"x": [[1.0]]}),
                             Text("t")], lambda p, m: {"t": []})
    (_, message), = explorable.problems()
    assert message == "'m' has no preset for p='y'"


def test_recompute_refuses_what_a_page_should_never_send():
    with pytest.raises(ValueError, match="not an option of 'row'"):
        engine.recompute("rule_heads", {"map": 0, "row": 99}, "es")


def test_views_render_their_numbers_in_the_lessons_language():
    table = Table("t", spec=".3f").render({"columns": ["", "x"], "rows": [["a", 0.5], ["b", [1.0, -2.0]]]}, "uk")
    assert "<td>0,500</td>" in table and "<td>[1,000; -2,000]</td>" in table
    text = Text("t").render([("title", "T"), ("{w} і {v}", {"w": Value(0.626, ".1%"), "v": 2.0})], "uk")
    assert '<div class="xp-text-title">T</div>' in text and "62,6% і 2,00" in text


def test_a_stepper_has_one_value_per_step_starting_at_the_first():
    stepper = Stepper("s", "S", ["one", "two", "three"])
    assert stepper.options == [(0, "one"), (1, "two"), (2, "three")] and stepper.value == 0


def test_a_lesson_naming_no_explorable_module_fails_the_build_at_its_line(tmp_path, capsys):
    lesson = tmp_path / "lessons" / "01-x"
    lesson.mkdir(parents=True)
    (lesson / "lesson.md").write_text("---\ntitle: X\nlanguage: en\norder: 1\nsummary: S.\n---\n\nText.\n\n"
                                      "```{explorable} no-such-thing\nCaption.\n```\n")
    with pytest.raises(AssertionError):
        build_site(tmp_path / "lessons", tmp_path / "_site")
    assert "01-x/lesson.md:10: no explorable 'no-such-thing' in py/course/explorables/ (known: " in \
        capsys.readouterr().err.replace("\\", "/")


def test_a_heatmap_escapes_its_labels_and_carries_a_table_of_the_same_values():
    figure = heatmap(np.array([[0.25, 0.75], [1.0, 0.0]]), ["<b>", "y"], ["p", "q"], title="t & u")
    assert isinstance(figure, Figure)
    assert "<b>" not in figure.svg and "&lt;b&gt;" in figure.svg and "t &amp; u" in figure.svg
    assert "<td>0.25</td><td>0.75</td>" in figure.table and "<td>1.00</td><td>0.00</td>" in figure.table
    assert "p → q" not in figure.svg and "&lt;b&gt; → q: 0.75" in figure.svg


def test_a_heatmap_wider_than_ten_columns_drops_its_in_cell_numbers_but_its_table_keeps_them():
    narrow = heatmap(np.full((3, 10), 0.5), list("abc"), [str(j) for j in range(10)])
    wide = heatmap(np.full((16, 16), 0.5), [str(i) for i in range(16)], [str(j) for j in range(16)])
    assert narrow.svg.count('class="hm-value') == 30
    assert 'class="hm-value' not in wide.svg and wide.svg.count("<title>") == 256
    assert wide.table.count("<td>0.50</td>") == 256
    view = engine.Heatmap("map").render({"values": [[0.5] * 12], "rows": ["q"], "cols": list("abcdefghijkl")}, "es")
    assert 'class="hm-value' not in view and view.count("<td>0.50</td>") == 12


def test_a_heatmap_refuses_labels_that_do_not_fit_the_matrix():
    with pytest.raises(ValueError, match="2×2 but there are 3 row"):
        heatmap([[0.5, 0.5], [0.5, 0.5]], ["a", "b", "c"], ["a", "b"])


def test_the_build_draws_each_distinct_view_once_and_shows_the_first_state(weights):
    explorable = engine.load("rule_heads")
    markup = build_side.render(explorable, build_side.compute(explorable), "rule_heads", 1, STRINGS, "es")
    assert markup.count('class="xp-variant"') == 5 + len(WORDS)  # 5 maps, one panel per asking word
    assert markup.count('class="xp-variant" data-keys') - markup.count(" hidden>") == 2
    assert 'value="7" checked' in markup and 'aria-pressed="true">¿Es un sustantivo?' in markup


def test_the_worked_example_of_the_authoring_guide_builds_and_draws_every_state(tmp_path, monkeypatch):
    guide = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    section = guide[guide.index("### `explorable`"):guide.index("### `answer`")]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    directive = re.search(r"(```\{explorable\} softmax-factor\n.*?```)", section, re.S).group(1)
    extra = tmp_path / "modules"
    extra.mkdir()
    (extra / "softmax_factor.py").write_text(code, encoding="utf-8")
    monkeypatch.setattr(course.explorables, "__path__", list(course.explorables.__path__) + [str(extra)])
    lesson = tmp_path / "lessons" / "01-example"
    lesson.mkdir(parents=True)
    (lesson / "lesson.md").write_text("---\ntitle: Example\nlanguage: en\norder: 1\nsummary: S.\n---\n\n" + directive
                                      + "\n\nSharper: {glue}`sf_sharp_bank:.1%`.\n", encoding="utf-8")
    try:
        build_site(tmp_path / "lessons", tmp_path / "_site")
    finally:
        sys.modules.pop("course.explorables.softmax_factor", None)
    page = (tmp_path / "_site" / "01-example" / "index.html").read_text(encoding="utf-8")
    scores = np.array([0.20, 0.54, 1.18]) / 2
    for factor in (0.1, 1.0, 5.0):
        assert "<td>{}</td>".format(format_value(float(softmax(factor * scores)[-1]), ".1%", "en")) in page
    assert "Sharper: <span class=\"glued\" data-glue=\"sf_sharp_bank\">{}</span>".format(
        format_value(float(softmax(5 * scores)[-1]), ".1%", "en")) in page
    assert 'aria-pressed="true">× 1</button>' in page and 'value="1.00"' in page


def test_a_broken_copy_of_the_worked_example_fails_the_build_at_the_modules_line(tmp_path, monkeypatch, capsys):
    guide = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", guide[guide.index("### `explorable`"):], re.S).group(1)
    code = code.replace("for value, _ in FACTORS}", "for value, _ in FACTORS[:2]}")  # no preset for × 5
    line = next(number for number, text in enumerate(code.splitlines(), 1) if 'Number("factor"' in text)
    extra = tmp_path / "modules"
    extra.mkdir()
    (extra / "softmax_factor.py").write_text(code, encoding="utf-8")
    monkeypatch.setattr(course.explorables, "__path__", list(course.explorables.__path__) + [str(extra)])
    lesson = tmp_path / "lessons" / "01-example"
    lesson.mkdir(parents=True)
    (lesson / "lesson.md").write_text("---\ntitle: E\nlanguage: en\norder: 1\nsummary: S.\n---\n\n"
                                      "```{explorable} softmax-factor\nCaption.\n```\n", encoding="utf-8")
    try:
        with pytest.raises(AssertionError):
            build_site(tmp_path / "lessons", tmp_path / "_site")
    finally:
        sys.modules.pop("course.explorables.softmax_factor", None)
    errors = capsys.readouterr().err.replace("\\", "/")
    assert "01-example/lesson.md:8: explorable 'softmax_factor': " in errors
    assert "softmax_factor.py:{}: 'factor' has no preset for preset=5.0".format(line) in errors


# Lesson 003's explorables against direct NumPy computation


def direct_bank_weights(W_q, tokens):
    """bank's weights computed here from the seed's vectors, with W_k keeping the first three features."""
    vectors = {"the": [0, 0, 0, 1.0], "river": [0, 1.0, 0, 0.2], "money": [1.0, 0, 0, 0.2], "bank": [0.5, 0.5, 0.8, 0.2]}
    X = np.array([vectors[token] for token in tokens])
    q = X[-1] @ W_q
    scores = X[:, :3] @ q / np.sqrt(3)
    return np.exp(scores) / np.exp(scores).sum()


def test_the_structure_preset_gives_the_seeds_weights_for_the_river_bank():
    W_q = np.zeros((4, 3))
    W_q[2, 1] = 3.75  # the seed's matrix: bank's structure feature asks along water
    weights = direct_bank_weights(W_q, ("the", "river", "bank"))
    assert np.round(100 * weights, 1).tolist() == [11.1, 62.6, 26.3]  # the seed's 11.1 % / 62.6 % / 26.3 %
    glue = engine.load("query_match").glue()
    assert [glue["qm_structure_river_" + token] for token in ("the", "river", "bank")] == pytest.approx(weights)
    table = engine.recompute("query_match", {"preset": 2, "sentence": 0}, "uk")["views"][2]
    assert "<td>11,1%</td>" in table and "<td>62,6%</td>" in table and "<td>26,3%</td>" in table


@pytest.mark.parametrize("preset", ["finance", "water", "structure"])
@pytest.mark.parametrize("sentence", ["river", "money"])
def test_every_preset_and_sentence_matches_a_direct_computation(preset, sentence):
    from course.explorables.query_match import PRESETS, SENTENCES, match
    expected = direct_bank_weights(PRESETS[preset], SENTENCES[sentence])
    assert match(PRESETS[preset], sentence)[3] == pytest.approx(expected)
    assert np.linalg.norm(np.array([0.5, 0.5, 0.8, 0.2]) @ PRESETS[preset]) == pytest.approx(3.0)


def test_switching_sentences_keeps_banks_query_and_changes_the_keys():
    from course.explorables.query_match import PRESETS, match
    Q_river, K_river, _, _ = match(PRESETS["finance"], "river")
    Q_money, K_money, _, _ = match(PRESETS["finance"], "money")
    assert np.array_equal(Q_river[-1], Q_money[-1]) and not np.array_equal(K_river[1], K_money[1])


def test_edited_coefficients_are_computed_like_the_presets():
    W_q = [[2.5, 0, 0], [0, -1, 0], [0, 3.75, 0], [0, 0, 0]]
    views = engine.recompute("query_match", {"preset": 0, "sentence": 1, "wq": W_q}, "en")["views"]
    for weight in direct_bank_weights(np.array(W_q), ("the", "money", "bank")):
        assert "<td>{}</td>".format(format_value(float(weight), ".1%", "en")) in views[2]
    with pytest.raises(ValueError, match="must be 4×3"):
        engine.recompute("query_match", {"preset": 0, "sentence": 1, "wq": [[1.0]]}, "en")


def test_the_tower_steps_give_the_seeds_weights_and_mixtures():
    from course.explorables.match_content import head
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    swap = np.array([[0.0, 1.0], [1.0, 0.0]])
    for step, (W_q, W_v) in enumerate([(np.eye(2), np.eye(2)), (swap, np.eye(2)), (swap, swap)]):
        scores = X @ (X[2] @ W_q) / np.sqrt(2)
        weights = np.exp(scores) / np.exp(scores).sum()
        _, _, _, got_weights, got_mixture = head(step)
        assert got_weights == pytest.approx(weights) and got_mixture == pytest.approx(weights @ (X @ W_v))
    assert np.round(head(0)[3], 4).tolist() == [0.2483, 0.2483, 0.5035]  # the seed's numbers
    assert np.round(head(1)[3], 4).tolist() == [0.2483, 0.5035, 0.2483]
    assert np.round(head(1)[4], 4).tolist() == [0.2483, 0.5035]
    assert np.round(head(2)[4], 4).tolist() == [0.5035, 0.2483]
    assert np.round(X[2] + head(1)[4], 4).tolist() == [1.2483, 0.5035]


def test_the_tower_panel_says_what_each_step_changed():
    explorable = engine.load("match_content")
    texts = [Text("q").render(explorable.compute((step,))["query"], "uk") for step in range(3)]
    assert "змінилися ваги" in texts[1] and "Eiffel" in texts[1]
    assert "Ваги ті самі" in texts[2]


@pytest.mark.parametrize("sentence", [("river", "bank"), ("bank", "river")])
def test_the_causal_mask_gives_the_future_no_weight_and_rows_still_sum_to_one(sentence):
    from course.explorables.causal_mask import weights
    vectors = {"river": [0, 1.0, 0, 0.2], "bank": [0.5, 0.5, 0.8, 0.2]}
    X = np.array([vectors[token] for token in sentence])
    scores = X @ X.T / 2
    both = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    _, bidirectional = weights(sentence, False)
    _, causal = weights(sentence, True)
    assert bidirectional == pytest.approx(both)
    assert causal[0].tolist() == [1.0, 0.0] and causal[1] == pytest.approx(both[1])
    assert np.allclose(causal.sum(axis=1), 1.0)


def test_in_bank_river_the_causal_bank_reads_only_itself_and_in_river_bank_its_row_is_unchanged():
    glue = engine.load("causal_mask").glue()
    assert glue["cm_bank_river_causal_bank"] == 1.0 and glue["cm_bank_river_causal_river"] == 0.0
    assert glue["cm_river_bank_causal_bank"] == pytest.approx(glue["cm_river_bank_bidirectional_bank"])
    table = engine.recompute("causal_mask", {"sentence": 1, "causal": 1}, "uk")["views"][1]
    assert "<td>−∞</td>" in table
