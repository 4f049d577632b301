"""The explorable engine (declarations, states, drawings, the worker's recompute) and lesson 000's rule-heads."""

import inspect
import json
import re
from html.parser import HTMLParser

import numpy as np
import pytest
from test_lesson_003 import ukrainian  # noqa: F401 (a fixture: lesson 003's explorables write in the page's language)
from varias_cabezas.explorables.rule_heads import WORDS, maps, pulled

from course import numbers
from course.attention import softmax
from course.display import Figure, heatmap
from course.explorables import call, engine
from course.explorables.engine import Choice, Explorable, Line, Matrix, Number, Radio, Stepper, Table, Text, Value
from course.numbers import number
from coursebuild import explorables as build_side
from coursebuild.lesson import edition_of, package_name
from coursebuild.sanitize import ATTRIBUTES, ELEMENTS
from support import ROOT, build_site

HEAD_1, HEAD_2, HEAD_3, HEAD_4, SUMMED, PAIRED = range(6)
word = WORDS.index
STRINGS = json.loads((ROOT / "site" / "i18n" / "es.json").read_text())
EVERY_MODULE = sorted("{}.explorables.{}".format(path.parents[1].name, path.stem)
                      for path in (ROOT / "lessons").glob("*/*/explorables/*.py") if path.stem != "__init__")


@pytest.fixture(scope="module")
def weights():
    return maps()


@pytest.fixture
def spanish():
    """rule-heads drawn as on its Spanish page: the module speaks the runner's language (conftest restores English)."""
    numbers.set_language("es")


def test_every_row_of_every_map_sums_to_one(weights):
    assert weights.shape == (6, len(WORDS), len(WORDS))
    assert np.allclose(weights.sum(axis=-1), 1.0)


def test_the_six_maps_differ(weights):
    for a in range(6):
        for b in range(a + 1, 6):
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


def test_the_head_with_rules_1_and_2_finds_the_subject_of_duerme_on_its_own(weights):
    row = word("duerme")
    assert pulled(weights[PAIRED][row]) == ["ratón"]
    assert weights[PAIRED][row][word("ratón")] > 2 * weights[PAIRED][row][word("gatos")]


def test_the_head_with_rules_1_and_2_loses_raton_in_persiguen_where_head_1_keeps_it(weights):
    row = word("persiguen")
    assert pulled(weights[PAIRED][row]) == ["gatos"]
    assert weights[PAIRED][row][word("ratón")] < weights[PAIRED][row][word("gatos")] / 4
    assert weights[HEAD_1][row][word("ratón")] > 5 * weights[PAIRED][row][word("ratón")]


def test_in_the_row_of_gatos_head_3_ties_both_determiners(weights):
    assert pulled(weights[HEAD_3][word("gatos")]) == ["el", "los"]


def test_the_prose_quotes_the_same_numbers_the_maps_hold(weights, spanish):
    glue = engine.load("varias_cabezas.explorables.rule_heads").glue()
    assert glue["rh_duerme_h1"] == weights[HEAD_1][word("duerme")][word("ratón")]
    assert glue["rh_persiguen_suma_raton"] == weights[SUMMED][word("persiguen")][word("ratón")]
    assert glue["rh_duerme_par_raton"] == weights[PAIRED][word("duerme")][word("ratón")]
    assert glue["rh_persiguen_par_raton"] == weights[PAIRED][word("persiguen")][word("ratón")]
    assert glue["rh_gatos_h3"] == weights[HEAD_3][word("gatos")][word("los")]


def test_the_worker_entry_point_calls_only_course_functions(spanish):
    views = call("course.explorables.engine:recompute", {"module": "varias_cabezas.explorables.rule_heads",
                                                         "values": {"map": 4, "row": 4}, "language": "es"})["views"]
    assert "persiguen" in views[1] and "gatos, 0,43" in views[1]
    with pytest.raises(ValueError):
        call("os:getcwd", {})
    with pytest.raises(ValueError, match="not the name of an explorable module"):
        engine.load("../os")


def test_the_panel_of_a_row_names_the_words_it_pulls_toward_with_their_weights(weights, spanish):
    explorable = engine.load("varias_cabezas.explorables.rule_heads")
    state = explorable.compute((SUMMED, word("persiguen")))
    text = Text("panel").render(state["panel"], "es")
    assert "«persiguen»" in text
    assert "Una sola cabeza · las cuatro reglas sumadas: gatos, {}".format(
        number(float(weights[SUMMED][word("persiguen")].max()), ".2f", "es")) in text
    assert "Cabeza 1 · ¿Es un sustantivo?: ratón y gatos" in text
    assert "Cabeza 1+2 · sustantivo y concordancia juntas: gatos" in text


# The engine


@pytest.mark.parametrize("module", EVERY_MODULE)
def test_every_explorable_declares_itself_without_mistakes_and_computes_every_state(module):
    explorable = engine.load(module)
    assert explorable.problems() == []
    states = build_side.compute(explorable)
    assert set(states) == set(explorable.keys()) and explorable.initial() in states


def written_in(folder):
    """The languages a lesson folder's pages are written in: its lesson.md's, then each edition's."""
    primary = re.search(r"^language: *(\S+)", (folder / "lesson.md").read_text(encoding="utf-8"), re.M).group(1)
    return [primary] + sorted(edition_of(path) for path in folder.glob("lesson.*.md"))


EVERY_PAGE_MODULE = sorted((module, language) for folder in (ROOT / "lessons").glob("*/") if (folder / "lesson.md").exists()
                           for module in EVERY_MODULE if module.split(".")[0] == package_name(folder.name)
                           for language in written_in(folder))


@pytest.mark.parametrize("module, language", EVERY_PAGE_MODULE)
def test_the_worker_draws_the_same_views_the_build_precomputed(module, language):
    numbers.set_language(language)  # each edition's page: its runner sets it before the module's words are read
    explorable = engine.load(module)
    for key in explorable.keys():
        values = {control.name: index for control, index in zip(explorable.discrete, key)}
        drawn = engine.recompute(module, values, language)["views"]
        assert drawn == explorable.draw(explorable.compute(key), key, language)


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attributes = set(), set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes |= {name for name, _ in attrs}


@pytest.mark.parametrize("module", EVERY_MODULE)
def test_every_drawing_survives_the_pages_whitelist_so_worker_answers_are_shown_whole(module):
    explorable = engine.load(module)
    seen = _Tags()
    for key, state in build_side.compute(explorable).items():
        for markup in explorable.draw(state, key, "en"):
            seen.feed(markup)
    assert seen.tags <= ELEMENTS and seen.attributes <= ATTRIBUTES


@pytest.mark.parametrize("value, spec, language, expected", [
    (0.5, ".2f", "es", "0,50"), (-1.25, ".3f", "uk", "-1,250"), (12345.678, ".1f", "es", "12.345,7"),
    (1234.5, ".0f", "en", "1,234"), (1234.5, ".0f", "es", "1234"), (0.6262, ".1%", "uk", "62,6%"),
    (-0.004, ".1f", "en", "0.0"), (np.array([0.5, 0.25]), ".2f", "uk", "[0,50; 0,25]"),
])
def test_explorables_write_numbers_in_the_lesson_language(value, spec, language, expected):
    assert engine.show(value, spec, language) == expected


def test_a_language_added_as_one_strings_file_writes_an_explorables_numbers(tmp_path, monkeypatch):
    strings = dict(json.loads((ROOT / "site" / "i18n" / "en.json").read_text()),
                   decimal_separator="\u00b7", first_grouped_number="1_000")
    (tmp_path / "xx.json").write_text(json.dumps(strings), encoding="utf-8")
    table = {language: tuple(entry) for language, entry in numbers.read_formats(tmp_path).items()}
    monkeypatch.setattr(numbers, "_FORMATS", dict(numbers.formats(), **table))
    explorable = Explorable([Number("x", "X", 1234.5, spec=".1f"), Table("rows")],
                            lambda x: {"rows": {"columns": ["", "x", "x/2"], "rows": [["x", Value(x), Value(x / 2, ".3f")]]}})
    markup = build_side.render(explorable, build_side.compute(explorable), "fixture", 1, strings, "xx")
    assert 'value="1_234\u00b75"' in markup
    assert "<td>1_234\u00b750</td><td>617\u00b7250</td>" in markup


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
        engine.recompute("varias_cabezas.explorables.rule_heads", {"map": 0, "row": 99}, "es")


def test_views_render_their_numbers_in_the_lessons_language():
    table = Table("t", spec=".3f").render({"columns": ["", "x"], "rows": [["a", 0.5], ["b", [1.0, -2.0]]]}, "uk")
    assert "<td>0,500</td>" in table and "<td>[1,000; -2,000]</td>" in table
    text = Text("t").render([("title", "T"), ("{w} і {v}", {"w": Value(0.626, ".1%"), "v": 2.0})], "uk")
    assert '<div class="xp-text-title">T</div>' in text and "62,6% і 2,00" in text


def test_a_stepper_has_one_value_per_step_starting_at_the_first():
    stepper = Stepper("s", "S", ["one", "two", "three"])
    assert stepper.options == [(0, "one"), (1, "two"), (2, "three")] and stepper.value == 0


def test_a_stepper_shows_its_label_and_a_leap_button_only_when_it_declares_one():
    plain = build_side.stepper_html(Stepper("s", "Steps", ["a", "b"]), 1, STRINGS, "es")
    assert '<span class="xp-label" id="xp-1-s">Steps</span>' in plain and 'aria-labelledby="xp-1-s"' in plain
    assert "data-step=\"leap\"" not in plain
    leaping = build_side.stepper_html(Stepper("s", "Steps", list("abcdefghijkl"), leap=(10, "+10 pasos")), 1,
                                      STRINGS, "es")
    assert '<button type="button" class="button" data-step="leap" data-leap="10">+10 pasos</button>' in leaping


LINE = {"x": [0, 1, 2, 3], "series": [("a", [1.0, 0.5, 0.25, 0.0]), ("b <&>", [0.5, 1.0, 0.5, 0.25])],
        "marks": [(2, "both right")], "title": "Loss", "x_label": "updates", "y_label": "loss"}


def test_a_line_draws_each_series_with_its_own_marker_and_the_mark_where_it_is_declared():
    markup = Line("l", spec=".2f").render(LINE, "uk")
    svg = markup[:markup.index("</svg>")]
    assert svg.count("<circle") == 4 + 1 and svg.count("<rect x=") == 4 + 1  # four points and a legend entry each
    assert "b &lt;&amp;&gt;" in svg and "<b" not in svg.replace("<b ", "")
    rule = re.search(r'<line class="line-mark" x1="([\d.]+)"', svg)
    left, width = Line.LEFT, Line.WIDTH - Line.LEFT - Line.RIGHT
    assert float(rule.group(1)) == pytest.approx(left + width * 2 / 3, abs=0.1)
    assert "<td>0,25</td>" in markup and "1,00" in svg  # the table of points and the top of the y axis, in Ukrainian
    tags = set(re.findall(r"<([a-z]+)", markup))
    attributes = set(re.findall(r' ([a-z-]+)="', markup))
    assert tags <= set(ELEMENTS) and attributes <= set(ATTRIBUTES)


def test_a_line_names_what_is_wrong_with_its_data():
    assert "non-empty 'x'" in Line("l").check({"x": [], "series": []})
    assert "one per x" in Line("l").check({"x": [0, 1], "series": [("a", [1.0])]})
    assert "1 to 3 series" in Line("l").check({"x": [0], "series": [("s", [0.0])] * 4})
    assert Line("l").check(LINE) is None


def test_a_lesson_naming_no_explorable_module_fails_the_build_at_its_line(tmp_path, capsys):
    lesson = tmp_path / "lessons" / "01-x"
    lesson.mkdir(parents=True)
    (lesson / "lesson.md").write_text("---\ntitle: X\nlanguage: en\norder: 1\nsummary: S.\n---\n\nText.\n\n"
                                      "```{explorable} no-such-thing\nCaption.\n```\n")
    with pytest.raises(AssertionError):
        build_site(tmp_path / "lessons", tmp_path / "_site")
    assert "01-x/lesson.md:10: no explorable 'no-such-thing' in x/explorables/ (known: none)" in \
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
    assert 'class="hm-value' not in view and view.count("<td>0,50</td>") == 12  # in the lesson's digits


def test_a_heatmap_refuses_labels_that_do_not_fit_the_matrix():
    with pytest.raises(ValueError, match="2×2 but there are 3 row"):
        heatmap([[0.5, 0.5], [0.5, 0.5]], ["a", "b", "c"], ["a", "b"])


def test_the_build_draws_each_distinct_view_once_and_shows_the_first_state(weights, spanish):
    explorable = engine.load("varias_cabezas.explorables.rule_heads")
    markup = build_side.render(explorable, build_side.compute(explorable), "varias_cabezas.explorables.rule_heads", 1, STRINGS, "es")
    assert markup.count('class="xp-variant"') == 6 + len(WORDS)  # 6 maps, one panel per asking word
    assert markup.count('class="xp-variant" data-keys') - markup.count(" hidden>") == 2
    assert 'value="7" checked' in markup and 'aria-pressed="true">Cabeza 1 · ¿Es un sustantivo?' in markup


def write_explorable(lesson, name, code):
    """Give the lesson in folder `lesson` a package of its own holding one explorable module."""
    package = lesson / "example" / "explorables"
    package.mkdir(parents=True)
    (lesson / "example" / "__init__.py").write_text("", encoding="utf-8")
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / (name + ".py")).write_text(code, encoding="utf-8")


def build_errors_with_explorable(tmp_path, capsys, name, code):
    """The errors, with forward slashes, of the build of a one-lesson course whose only block is the explorable
    module `name` holding `code`, which must fail."""
    lesson = tmp_path / "lessons" / "01-example"
    write_explorable(lesson, name, code)
    (lesson / "lesson.md").write_text("---\ntitle: E\nlanguage: en\norder: 1\nsummary: S.\n---\n\n"
                                      "```{{explorable}} {}\nCaption.\n```\n".format(name.replace("_", "-")),
                                      encoding="utf-8")
    with pytest.raises(AssertionError):
        build_site(tmp_path / "lessons", tmp_path / "_site")
    return capsys.readouterr().err.replace("\\", "/")


def test_the_worked_example_of_the_authoring_guide_builds_and_draws_every_state(tmp_path):
    guide = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    section = guide[guide.index("### `explorable`"):guide.index("### `answer`")]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    directive = re.search(r"(```\{explorable\} softmax-factor\n.*?```)", section, re.S).group(1)
    lesson = tmp_path / "lessons" / "01-example"
    write_explorable(lesson, "softmax_factor", code)
    (lesson / "lesson.md").write_text("---\ntitle: Example\nlanguage: en\norder: 1\nsummary: S.\n---\n\n" + directive
                                      + "\n\nSharper: {glue}`sf_sharp_bank:.1%`.\n", encoding="utf-8")
    build_site(tmp_path / "lessons", tmp_path / "_site")
    page = (tmp_path / "_site" / "01-example" / "index.html").read_text(encoding="utf-8")
    scores = np.array([0.20, 0.54, 1.18]) / 2
    for factor in (0.1, 1.0, 5.0):
        assert "<td>{}</td>".format(number(float(softmax(factor * scores)[-1]), ".1%", "en")) in page
    assert "Sharper: <span class=\"glued\" data-glue=\"sf_sharp_bank\">{}</span>".format(
        number(float(softmax(5 * scores)[-1]), ".1%", "en")) in page
    assert 'aria-pressed="true">× 1</button>' in page and 'value="1.00"' in page


def test_a_broken_copy_of_the_worked_example_fails_the_build_at_the_modules_line(tmp_path, capsys):
    guide = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", guide[guide.index("### `explorable`"):], re.S).group(1)
    code = code.replace("for value, _ in FACTORS}", "for value, _ in FACTORS[:2]}")  # no preset for × 5
    line = next(number for number, text in enumerate(code.splitlines(), 1) if 'Number("factor"' in text)
    errors = build_errors_with_explorable(tmp_path, capsys, "softmax_factor", code)
    assert "01-example/lesson.md:8: explorable 'example.explorables.softmax_factor': " in errors
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
    glue = engine.load("odna_holova.explorables.query_match").glue()
    assert [glue["qm_structure_river_" + token] for token in ("the", "river", "bank")] == pytest.approx(weights)
    table = engine.recompute("odna_holova.explorables.query_match", {"preset": 2, "sentence": 0}, "uk")["views"][2]
    assert "<td>11,1%</td>" in table and "<td>62,6%</td>" in table and "<td>26,3%</td>" in table


@pytest.mark.parametrize("preset", ["finance", "water", "structure"])
@pytest.mark.parametrize("sentence", ["river", "money"])
def test_every_preset_and_sentence_matches_a_direct_computation(preset, sentence):
    from odna_holova.explorables.query_match import PRESETS, SENTENCES, match
    expected = direct_bank_weights(PRESETS[preset], SENTENCES[sentence])
    assert match(PRESETS[preset], sentence)[3] == pytest.approx(expected)
    assert np.linalg.norm(np.array([0.5, 0.5, 0.8, 0.2]) @ PRESETS[preset]) == pytest.approx(3.0)


@pytest.mark.usefixtures("ukrainian")
@pytest.mark.parametrize("sentence", ["river", "money"])
def test_the_query_against_water_avoids_river_and_the_zero_query_weighs_every_token_alike(sentence):
    from odna_holova.explorables.query_match import PRESETS, SENTENCES, match
    against = direct_bank_weights(PRESETS["against_water"], SENTENCES[sentence])
    assert match(PRESETS["against_water"], sentence)[3] == pytest.approx(against)
    if sentence == "river":
        assert against.argmin() == 1 and against[1] < against[0]  # bank now avoids river, below the empty the
    assert match(PRESETS["zero"], sentence)[3] == pytest.approx(np.full(3, 1 / 3))
    summary = Text("s").render(engine.load("odna_holova.explorables.query_match").compute((4, 0))["summary"], "uk")
    assert "Усі ваги bank рівні, 33,3%" in summary


@pytest.mark.parametrize("preset", ["finance", "water", "structure", "against_water"])
def test_each_score_is_split_into_per_axis_contributions_that_sum_to_it(preset):
    from odna_holova.explorables.query_match import PRESETS, SENTENCES, contributions, match
    Q, K, scores, _ = match(PRESETS[preset], "river")
    for j in range(len(SENTENCES["river"])):
        parts = contributions(Q[-1], K[j])
        assert parts == pytest.approx([Q[-1][c] * K[j][c] / np.sqrt(3) for c in range(3)])
        assert parts.sum() == pytest.approx(scores[j])
    table = engine.recompute("odna_holova.explorables.query_match", {"preset": 2, "sentence": 0}, "uk")["views"][3]
    assert "<td>1,732</td>" in table  # river's water contribution with the structure preset: 3 × 1 / √3


def test_switching_sentences_keeps_banks_query_and_changes_the_keys():
    from odna_holova.explorables.query_match import PRESETS, match
    Q_river, K_river, _, _ = match(PRESETS["finance"], "river")
    Q_money, K_money, _, _ = match(PRESETS["finance"], "money")
    assert np.array_equal(Q_river[-1], Q_money[-1]) and not np.array_equal(K_river[1], K_money[1])


def test_edited_coefficients_are_computed_like_the_presets():
    W_q = [[2.5, 0, 0], [0, -1, 0], [0, 3.75, 0], [0, 0, 0]]
    views = engine.recompute("odna_holova.explorables.query_match", {"preset": 0, "sentence": 1, "wq": W_q}, "en")["views"]
    for weight in direct_bank_weights(np.array(W_q), ("the", "money", "bank")):
        assert "<td>{}</td>".format(number(float(weight), ".1%", "en")) in views[2]
    with pytest.raises(ValueError, match="must be 4×3"):
        engine.recompute("odna_holova.explorables.query_match", {"preset": 0, "sentence": 1, "wq": [[1.0]]}, "en")


@pytest.mark.parametrize("swap_query", [False, True])
@pytest.mark.parametrize("swap_values", [False, True])
def test_every_tower_state_matches_a_direct_computation(swap_query, swap_values):
    from odna_holova.explorables.match_content import head
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    swap = np.array([[0.0, 1.0], [1.0, 0.0]])
    W_q, W_v = (swap if swap_query else np.eye(2)), (swap if swap_values else np.eye(2))
    scores = X @ (X[2] @ W_q) / np.sqrt(2)
    weights = np.exp(scores) / np.exp(scores).sum()
    _, _, _, got_weights, got_mixture = head(swap_query, swap_values)
    assert got_weights == pytest.approx(weights) and got_mixture == pytest.approx(weights @ (X @ W_v))


def test_the_tower_states_give_the_seeds_numbers_and_swapped_values_alone_mix_like_the_swapped_query():
    from odna_holova.explorables.match_content import head
    assert np.round(head(False, False)[3], 4).tolist() == [0.2483, 0.2483, 0.5035]  # the seed's numbers
    assert np.round(head(True, False)[3], 4).tolist() == [0.2483, 0.5035, 0.2483]
    assert np.round(head(True, False)[4], 4).tolist() == [0.2483, 0.5035]
    assert np.round(head(True, True)[4], 4).tolist() == [0.5035, 0.2483]
    values_only = head(False, True)
    assert np.array_equal(values_only[3], head(False, False)[3])  # the weights of raw similarity...
    assert values_only[4] == pytest.approx(head(True, False)[4])  # ...mix what the swapped query mixes


@pytest.mark.usefixtures("ukrainian")
def test_the_tower_panel_names_the_state_with_other_weights_and_the_same_mixture():
    explorable = engine.load("odna_holova.explorables.match_content")
    texts = {key: Text("m").render(explorable.compute(key)["mixture"], "uk") for key in
             [(False, False), (True, False), (False, True), (True, True)]}
    assert "бере tower" in texts[(False, True)] and "бере Eiffel" in texts[(True, False)]
    assert "«переставлено лише запит», хоча ваги там інші" in texts[(False, True)]
    assert "«сира схожість», хоча ваги там інші" in texts[(True, True)]


@pytest.mark.parametrize("sentence", [("by", "the", "river", "bank"), ("bank", "of", "the", "river")])
def test_the_causal_mask_gives_the_future_no_weight_and_each_row_renormalises_over_its_past(sentence):
    from odna_holova.explorables.causal_mask import weights
    vectors = {"the": [0, 0, 0, 1.0], "by": [0, 0, 0, 1.0], "of": [0, 0, 0, 1.0], "river": [0, 1.0, 0, 0.2],
               "bank": [0.5, 0.5, 0.8, 0.2]}
    X = np.array([vectors[token] for token in sentence])
    scores = X @ X.T / 2
    both = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    _, bidirectional = weights(sentence, False)
    _, causal = weights(sentence, True)
    assert bidirectional == pytest.approx(both)
    for i in range(len(sentence)):
        past = np.exp(scores[i, :i + 1]) / np.exp(scores[i, :i + 1]).sum()
        assert causal[i, :i + 1] == pytest.approx(past) and not causal[i, i + 1:].any()
    assert causal[-1] == pytest.approx(both[-1])


def test_in_bank_of_the_river_the_causal_bank_reads_only_itself_and_in_by_the_river_bank_its_row_is_unchanged():
    glue = engine.load("odna_holova.explorables.causal_mask").glue()
    assert glue["cm_bank_of_the_river_causal_bank_bank"] == 1.0
    assert glue["cm_bank_of_the_river_causal_bank_river"] == 0.0
    assert glue["cm_by_the_river_bank_causal_bank_river"] == pytest.approx(
        glue["cm_by_the_river_bank_bidirectional_bank_river"])
    assert glue["cm_bank_of_the_river_causal_of_bank"] + glue["cm_bank_of_the_river_causal_of_of"] == pytest.approx(1)
    table = engine.recompute("odna_holova.explorables.causal_mask", {"sentence": 1, "causal": 1}, "uk")["views"][1]
    assert "<td>−∞</td>" in table


BROKEN = "import numpy as np\n\ndef explorable(:\n"
MANY_STATES = """\
from course.explorables.engine import Choice, Explorable, Table


def explorable():
    return Explorable([Choice("a", "A", list(range(16))), Choice("b", "B", list(range(16))), Table("t")], state)


def state(a, b):
    return {"t": {"columns": ["i", "v"], "rows": [[i, a * 1000 + b + i / 7] for i in range(400)], "caption": "c"}}
"""


def test_an_explorable_that_fails_to_import_is_reported_at_its_own_line_and_an_unused_one_only_warned(tmp_path,
                                                                                                     capsys):
    errors = build_errors_with_explorable(tmp_path, capsys, "broken", BROKEN)
    lesson = tmp_path / "lessons" / "01-example"
    assert "01-example/lesson.md:8: explorable 'example.explorables.broken': " in errors
    assert "example/explorables/broken.py:3: SyntaxError" in errors and "Traceback" not in errors
    (lesson / "lesson.md").write_text("---\ntitle: E\nlanguage: en\norder: 1\nsummary: S.\n---\n\nText.\n")
    build_site(tmp_path / "lessons", tmp_path / "_site")
    assert "WARNING: 01-example/example/explorables/broken.py is not used by" in capsys.readouterr().out


def test_an_explorable_whose_drawn_states_pass_the_size_bound_fails_the_build_naming_it(tmp_path, capsys):
    errors = build_errors_with_explorable(tmp_path, capsys, "many", MANY_STATES)
    assert "lesson.md:8: explorable 'example.explorables.many' draws" in errors and "more than the 2,000,000" in errors


def test_a_stepper_whose_titles_count_themselves_is_not_counted_again_one_apart():
    strings = json.loads((ROOT / "site" / "i18n" / "uk.json").read_text())
    updates = Stepper("update", "Оновлення", ["оновлень виконано: {}".format(n) for n in range(32)])
    stages = Stepper("stage", "Етап", ["речення", "запит", "Q / K / V"])
    shown = lambda control: re.findall(r'<span class="xp-step"[^>]*>([^<]*)</span>',  # noqa: E731
                                       build_side.stepper_html(control, 1, strings, "uk"))
    titles = shown(updates)
    assert not [title for title in titles if "Крок" in title]  # no step number beside the title's own
    assert titles[10] == strings["explorable_step_counted"].format(title="оновлень виконано: 10", last=31)
    assert shown(stages)[2] == strings["explorable_step"].format(n=3, total=3, title="Q / K / V")


def test_a_line_may_end_early_but_may_not_start_late_or_break():
    early = {"x": [0, 1, 2], "series": [("whole", [3.0, 2.0, 1.0]), ("stopped", [3.0, 2.5, None])]}
    assert Line("l").check(early) is None
    markup = Line("l", spec=".1f").render(early, "en")
    paths = re.findall(r'class="line-series line-series-\d" d="M([^"]*)"', markup)
    assert [path.count(" L") + 1 for path in paths] == [3, 2]
    assert "<td>–</td>" in markup
    for values in ([None, 2.0, 1.0], [3.0, None, 1.0], [None, None, None]):
        assert "end early" in Line("l").check({"x": [0, 1, 2], "series": [("a", values)]})
