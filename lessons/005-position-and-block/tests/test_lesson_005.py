"""Lesson 005, position and the block: its checkers (reference, a rewrite, every known mistake with its own
sentence), its quiz keys recomputed, its explorable's claims, and its cells' printed claims as built."""

import html
import re
import shutil

import numpy as np
import pytest
from position_and_block.explorables import position_dots

import support
from course.exercise import grade
from course.nn.layers import TransformerBlock
from course.numbers import number
from coursebuild.lesson import read_lesson
from support import ROOT, build_site

SLUG = "005-position-and-block"
FOLDER = ROOT / "lessons" / SLUG
LESSON = read_lesson(FOLDER / "lesson.md")[0]
CHECKERS = {"positional_encoding": "position_and_block.checkers.positional_encoding",
            "layer_norm": "position_and_block.checkers.layer_norm"}
REWRITES = {
    "positional_encoding": (
        "import math\n"
        "import numpy as np\n"
        "def positional_encoding(n_positions, d_model):\n"
        "    rows = []\n"
        "    for t in range(n_positions):\n"
        "        row = []\n"
        "        for j in range(d_model):\n"
        "            angle = t / 10000 ** ((j - j % 2) / d_model)\n"
        "            row.append(math.sin(angle) if j % 2 == 0 else math.cos(angle))\n"
        "        rows.append(row)\n"
        "    return np.array(rows, dtype=float).reshape(n_positions, d_model)\n"),
    "layer_norm": (
        "import numpy as np\n"
        "def layer_norm(x, eps):\n"
        "    centered = x - np.mean(x, axis=x.ndim - 1)[..., None]\n"
        "    return centered / np.sqrt(np.var(x, axis=-1)[..., None] + eps)\n"),
}


def exercise(key):
    """The lesson's exercise with this id."""
    return next(found for found in LESSON.exercises if found.id == key)


def quiz(key):
    """The lesson's quiz with this ':id:'."""
    return next(found for found in LESSON.quizzes if found.key == key)


@pytest.mark.parametrize("key", sorted(CHECKERS))
def test_the_reference_and_a_different_correct_rewrite_pass(key):
    assert grade(exercise(key).solution, CHECKERS[key])["passed"]
    assert grade(REWRITES[key], CHECKERS[key])["passed"]


@pytest.mark.parametrize("key", sorted(CHECKERS))
def test_every_known_wrong_solution_fails_with_a_sentence_of_its_own(key):
    wrong = exercise(key).wrong
    assert len(wrong) >= 6
    sentences = {}
    for name, code in sorted(wrong.items()):
        result = grade(code, CHECKERS[key])
        assert not result["passed"], name
        message = result["results"][-1]["message"]
        assert message.endswith("."), message
        hint = message.split(";", 1)[-1]  # the case and the numbers differ anyway; the hint must too
        sentences[name] = hint
    assert len(set(sentences.values())) == len(sentences), sentences


# Each known-wrong solution's slip, in the words its English message must use (not the formula restated).
SLIPS = {
    "layer_norm": {
        "divides_by_variance.py": "divided by the variance", "eps_outside_root.py": "outside the square root",
        "forgets_eps.py": "eps is not used", "in_place.py": "changed its input x", "no_keepdims.py": "keepdims=True",
        "unbiased_variance.py": "D - 1", "variance_by_sum.py": "added up the squared deviations",
        "whole_array.py": "over the whole array", "wrong_axis.py": "along the first axis",
    },
    "positional_encoding": {
        "angles_in_degrees.py": "in degrees", "base_1000.py": "base 10000", "breaks_on_odd_width.py": "odd",
        "exponent_without_two.py": "not 2i", "positions_from_one.py": "start at 1",
        "rate_per_column.py": "its own rate", "sin_cos_swapped.py": "cosines in the even columns",
        "sines_then_cosines.py": "all the sines in the first half", "transposed.py": "positions on the rows",
    },
}


@pytest.mark.parametrize("key", sorted(SLIPS))
def test_every_known_wrong_solution_is_told_its_own_slip(key):
    support.assert_every_mistake_named(exercise(key), CHECKERS[key], SLIPS[key])


def test_an_odd_width_table_that_raises_is_told_about_odd_widths():
    message = grade(exercise("positional_encoding").wrong["breaks_on_odd_width.py"],
                    CHECKERS["positional_encoding"])["results"][-1]["message"]
    assert "d_model=5" in message and "odd" in message


def test_the_numeric_quizzes_keys_are_what_the_library_computes():
    P = position_dots.table(16, 16)
    assert quiz("pe-self").answer == pytest.approx(P[5] @ P[5]) and quiz("pe-self").tolerance == 0
    block = TransformerBlock(16, 2, 64, np.random.default_rng(0))
    assert quiz("block-count").answer == block.count() == 12 * 16 ** 2 + 13 * 16


def test_the_dot_product_of_two_positions_depends_on_their_distance_alone_and_stays_positive_here():
    for width in position_dots.WIDTHS:
        for length in position_dots.LENGTHS:
            P = position_dots.table(length, width)
            assert position_dots.spread_over_starts(P).max() < 1e-12
            assert (P @ P.T).min() > 0  # what the prose says of every table the figure draws
    glued = position_dots.glue()
    assert glued["pd_self_16"] == 8 and glued["pd_far_16"] < glued["pd_one_16"] < glued["pd_self_16"]


def test_every_curve_the_figure_offers_has_a_few_distances_and_its_panel_describes_that_curve():
    shortest, latest = min(position_dots.LENGTHS), max(position_dots.FROM)
    for width in position_dots.WIDTHS:
        for length in position_dots.LENGTHS:
            for start in position_dots.FROM:
                state = position_dots.state(width, length, start)
                distances, dots = state["dots"]["x"], state["dots"]["series"][0][1]
                assert distances == list(range(1, length - start)) and len(distances) >= 3
                summary = state["summary"][1][1]
                assert summary["one"].number == dots[0]  # "at distance 1": the curve's first point
                assert summary["low"].number == min(dots) and summary["where"].number == distances[dots.index(min(dots))]
                # the value at distance 0 is the pe-self quiz's answer: neither the curve nor the panel shows it
                assert max(dots) < width / 2 and all(value.number != width / 2 for value in summary.values())
    # the state the learner's review found wrong: 8 positions, compared from the last start the figure offers
    state = position_dots.state(8, shortest, latest)
    assert state["dots"]["x"] == [1, 2, 3]
    with pytest.raises(ValueError):
        position_dots.state(8, 8, 7)  # no row after it: refused rather than described


def test_a_model_without_positions_writes_the_same_first_digit_for_two_inputs_whose_reversals_differ():
    from position_and_block.experiment import OrderModel
    model = OrderModel(positions=False, width=16, heads=2, blocks=2, seed=3)
    first, second = np.array([[0, 1, 2, 3, 4, 5]]), np.array([[0, 1, 2, 3, 5, 4]])
    assert first[0, ::-1][0] != second[0, ::-1][0]
    np.testing.assert_allclose(model.forward(first)[0][0, 0], model.forward(second)[0][0, 0], atol=1e-10)


def test_the_cells_that_answer_a_quiz_say_so():
    checks = {cell.key: cell.checks for cell in LESSON.cells if cell.checks}
    assert checks == {"permute": ("permute",), "ln-check": ("ln-props",), "block-count": ("block-count",),
                      "train-positions": ("runs",), "train-no-positions": ("runs",), "train-bare": ("runs",),
                      "loss-curves": ("runs",)}


@pytest.mark.parametrize("path", ["lesson.md", "lesson.es.md", "lesson.uk.md"])
def test_no_cell_writes_out_an_exercise_s_function_for_the_learner_to_read(path):
    lesson = read_lesson(FOLDER / path)[0]
    for found in lesson.exercises:
        for cell in lesson.cells:
            assert "def {}(".format(found.id) not in cell.code, (path, cell.key, found.id)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    lessons = tmp_path_factory.mktemp("lessons")
    shutil.copytree(FOLDER, lessons / SLUG, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    site = build_site(lessons, tmp_path_factory.mktemp("site"))
    return (site / SLUG / "index.html").read_text(encoding="utf-8")


def output(page, key):
    """The build-time output of the cell with this ':id:', as plain text."""
    number = next(cell.number for cell in LESSON.cells if cell.key == key)
    section = re.search(r'<section class="cell" id="cell-{}".*?</section>'.format(number), page, re.S).group(0)
    text = section.split('class="cell-output"', 1)[1]
    return html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<svg.*?</svg>", "", text, flags=re.S)))


def test_permuting_the_input_rows_permutes_the_output_rows_and_nothing_else(page):
    printed = output(page, "permute")
    assert "rows moved the same way: True | largest difference: 0.000000" in printed
    assert "row for row: False" in printed


def test_every_forward_pass_written_in_the_page_is_the_library_s(page):
    assert "same as TransformerBlock.forward: True" in output(page, "block-forward")
    assert "same as PostNormBlock.forward: True" in output(page, "block-post")
    assert output(page, "order-forward").count("forward = library's: True") == 3


def test_layer_norm_centers_and_scales_each_row_and_ignores_the_row_s_scale(page):
    printed = output(page, "ln-check")
    assert "10x + 3, largest difference from y: " in printed
    assert "block-count" not in printed


def test_the_last_block_s_gradient_shrinks_with_depth_in_pre_norm_and_not_in_post_norm(page):
    rows = re.findall(r"^\s*(\d+)\s+([\d.,]+),\s+([\d.,]+) \|\s+([\d.,]+),\s+([\d.,]+)$", output(page, "norm-gradients"),
                      re.M)
    values = {int(depth): [float(value.replace(",", "")) for value in rest] for depth, *rest in rows}
    assert sorted(values) == [3, 6, 12, 24]
    pre = [values[depth][1] for depth in sorted(values)]
    post = [values[depth][3] for depth in sorted(values)]
    assert all(a > b for a, b in zip(pre, pre[1:]))  # "shrinks"
    assert pre[-1] / pre[0] < 0.5
    assert 0.8 < post[-1] / post[0] < 1.25  # "about where it started"


def test_the_block_count_cell_adds_the_terms_to_the_library_s_count_for_any_number_of_heads(page):
    printed = output(page, "block-count")
    assert "same: True" in printed and "total: 3,280" in printed and "8 heads: 3,280" in printed


def test_with_positions_the_model_reverses_and_without_it_does_not(page):
    def ended(key):
        printed = output(page, key)
        found = re.search(r"loss ([\d.]+) on the first batch, ([\d.]+) on average over the last (\d+) steps \| "
                          r"held-out digits right ([\d.]+)% \| sequences right ([\d.]+)%", printed)
        start, end, tail, digits, sequences = [float(value) for value in found.groups()]
        progress = re.search(r"step (\d+)/\1 · loss ([\d.]+)", printed)  # the progress line, as the build kept it
        assert float(progress.group(2)) == end, "the progress line and the printed line give one same loss"
        assert start > np.log(10)  # what the fold's account says of the first batch
        return [start, end, digits, sequences]

    with_positions, without, bare = ended("train-positions"), ended("train-no-positions"), ended("train-bare")
    assert with_positions[3] > 99 and without[3] < 5 and without[2] < 50
    assert with_positions[1] < bare[1] < without[1]  # what the fold's account says: bare trains slower
    assert bare[3] > without[3]


def test_a_legend_label_with_a_line_break_is_drawn_as_two_texts_that_survive_the_page_s_whitelist():
    from position_and_block.figures import loss_curves

    from coursebuild.sanitize import sanitize
    markup = sanitize(loss_curves([("one", [2.0, 1.0] * 10), ("first line\nsecond", [2.0, 1.5] * 10)],
                                  "losses", "step", "loss").html())
    first = re.search(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>first line</text>', markup)
    second = re.search(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>second</text>', markup)
    assert first and second and first.group(1) == second.group(1)
    assert float(second.group(2)) == float(first.group(2)) + 12


def run_cells(*keys):
    """The primary's cells with these ':id:'s, run as the page runs them."""
    return support.run_cells(LESSON, *keys)


def test_a_causally_masked_layer_is_not_permutation_equivariant_on_the_page_s_sentence_while_an_unmasked_one_is(
        page):
    cells = run_cells("setup", "permute", "permute-causal")
    X, order = cells["X"], cells["order"]
    unmasked, causal = cells["self_attention"], cells["causal_self_attention"]
    np.testing.assert_allclose(unmasked(X[order]), unmasked(X)[order], atol=1e-12)
    assert not np.allclose(causal(X[order]), causal(X)[order])
    changed = X.copy()
    changed[-1] += 1.0  # a causal row reads nothing after it: changing the last row leaves the others as they were
    np.testing.assert_allclose(causal(changed)[:-1], causal(X)[:-1], atol=1e-12)
    printed = output(page, "permute-causal")
    assert "causal mask: output = old output with its rows moved: False" in printed
    assert "no mask:     output = old output with its rows moved: True" in printed


def test_layer_norm_of_10x_plus_3_differs_through_eps_alone_a_little_here_and_by_nearly_1_on_a_row_of_variance_near_eps(
        page):
    def layer_norm(x, eps=1e-5):
        centered = x - x.mean(axis=-1, keepdims=True)
        return centered / np.sqrt(x.var(axis=-1, keepdims=True) + eps)

    cells = run_cells("setup", "layer-norm", "ln-check")
    x, flat = cells["x"], cells["flat"]
    assert x.var(axis=1).min() > 1e5 * 1e-5  # the quiz's premise: every row's variance is much larger than eps
    here = np.abs(layer_norm(10 * x + 3) - layer_norm(x)).max()
    assert 0 < here < 1e-5
    np.testing.assert_allclose(np.abs(layer_norm(10 * x + 3, 0.0) - layer_norm(x, 0.0)).max(), 0, atol=1e-12)
    assert 0.1 < flat.var() / 1e-5 < 10
    near_eps = np.abs(layer_norm(10 * flat + 3) - layer_norm(flat)).max()
    assert near_eps > 0.5
    printed = output(page, "ln-check")
    assert "10x + 3, largest difference from y: {}".format(number(here, ".1e")) in printed
    assert "a row of variance {}, largest difference: {}".format(number(flat.var(), ".1e"), number(near_eps, ".2f")) \
        in printed


def test_only_the_width_8_table_peaks_past_distance_1_and_every_dot_product_the_figure_draws_is_positive():
    for width in position_dots.WIDTHS:
        P = position_dots.table(max(position_dots.LENGTHS), width)
        dots = P[0] @ P[1:].T
        assert (int(dots.argmax()) + 1 == 1) == (width != 8), width
    cells = run_cells("setup", "pe-table", "pe-table-glue")
    assert cells["narrow_dots"].max() > cells["narrow_dots"][0]
    assert position_dots.glue()["pd_min_all"] > 0  # "no two rows are even 90 degrees apart"


def test_the_learned_table_has_rows_0_to_n_max_minus_1_and_the_sinusoidal_one_a_row_for_n_max():
    cells = run_cells("setup", "pe-table", "learned")
    n_max, learned = cells["n_max"], cells["learned"]
    assert len(learned) == n_max and learned[n_max - 1].shape == (16,)
    with pytest.raises(IndexError):
        learned[n_max]
    row = cells["sinusoidal_table"](n_max + 1, 16)[n_max]
    assert row[0] == pytest.approx(np.sin(n_max))  # a value, not a width that could be read as the position


def test_a_swiglu_mlp_of_width_8_thirds_has_the_weights_of_a_relu_mlp_of_width_4():
    d_model = run_cells("setup")["d_model"]
    assert 3 * d_model * (8 * d_model / 3) == pytest.approx(2 * d_model * (4 * d_model))
    for path in ("lesson.md", "lesson.es.md", "lesson.uk.md"):
        text = (FOLDER / path).read_text(encoding="utf-8")
        assert "SwiGLU" in text and r"\tfrac{8}{3}\,d_{\text{model}}" in text and r"3 \cdot \tfrac{8}{3} = 2 \cdot 4" in text


def stdout_of(result):
    """What a cell run by course.runner printed."""
    return "".join(item["text"] for item in result["output"] if item.get("name") == "stdout")


def test_a_training_stopped_part_way_draws_a_shorter_curve_and_its_cell_run_again_starts_over_from_the_seed(
        monkeypatch):
    from course import control
    from course.runner import Session

    def run(session, cell):
        result = support.run_on_own_thread(session.run(str(cell.number), cell.code))  # Playwright's loop may run here
        assert result["ok"] or result.get("stopped"), result["output"]
        return result

    session, cells = Session(), {cell.key: cell for cell in LESSON.cells if cell.key}
    for cell in LESSON.cells:
        if cell.key == "train-no-positions":
            break
        run(session, cell)
    whole = stdout_of(run(session, cells["train-no-positions"]))
    asked = iter(range(10 ** 6))
    real = control.stop_requested

    def stop_at_step_78():  # the learner presses Stop during step 78, as the page's request would
        if next(asked) == 77:
            control.request_stop()
        return real()

    monkeypatch.setattr(control, "stop_requested", stop_at_step_78)
    stopped = run(session, cells["train-no-positions"])
    monkeypatch.setattr(control, "stop_requested", real)
    assert stopped.get("stopped") and "stopped after 78 of 300 steps" in stdout_of(stopped)
    assert len(session.namespace["runs"]["without positions"]["losses"]) == 78
    run(session, cells["train-bare"])
    figure = "".join(item.get("data", "") for item in run(session, cells["loss-curves"])["output"])
    assert "no positions (stopped)" in figure and "<td>–</td>" in figure  # a shorter line, a dash past its end
    paths = re.findall(r'class="line-series line-series-\d" d="M([^"]*)"', figure)
    assert [path.count(" L") + 1 for path in paths] == [30, 8, 30]  # every 10th step: 300 steps, and 78
    # Run again, the stopped cell trains its model from the seed: the run it prints is the whole one.
    assert stdout_of(run(session, cells["train-no-positions"])) == whole
