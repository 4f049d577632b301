"""The math behind lesson 000's explorable, and the heatmap helper shared by cells and explorables."""

import numpy as np
import pytest

from course.display import Figure, heatmap
from course.explorables import call
from course.explorables.rule_heads import WORDS, maps, pull, states

HEAD_1, HEAD_2, HEAD_3, HEAD_4, SUMMED = range(5)
word = WORDS.index


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
    assert pull(weights[HEAD_1][row]) == ([word("ratón"), word("gatos")], pytest.approx(weights[HEAD_1][row].max()))
    singulars, _ = pull(weights[HEAD_2][row])
    assert word("ratón") not in singulars and len(singulars) == 3
    assert all(WORDS[u] in ("el", "pequeño", "duerme") for u in singulars)
    assert pull(weights[HEAD_3][row]) is None and pull(weights[HEAD_4][row]) is None
    assert pull(weights[SUMMED][row])[0] == [word("ratón")]


def test_in_the_row_of_persiguen_the_sum_nearly_loses_raton_but_head_1_keeps_it(weights):
    row = word("persiguen")
    assert pull(weights[SUMMED][row])[0] == [word("gatos")]
    assert weights[SUMMED][row][word("ratón")] < weights[SUMMED][row][word("gatos")] / 4
    assert weights[HEAD_1][row][word("ratón")] == pytest.approx(weights[HEAD_1][row][word("gatos")])
    assert weights[HEAD_1][row][word("ratón")] > 3 * weights[SUMMED][row][word("ratón")]


def test_the_prose_quotes_the_same_numbers_the_maps_hold(weights):
    glue = states()["glue"]
    assert glue["rh_duerme_h1"] == weights[HEAD_1][word("duerme")][word("ratón")]
    assert glue["rh_persiguen_suma_raton"] == weights[SUMMED][word("persiguen")][word("ratón")]


def test_the_worker_entry_point_calls_only_course_functions():
    assert call("course.explorables.rule_heads:states", {})["words"] == list(WORDS)
    with pytest.raises(ValueError):
        call("os:getcwd", {})


def test_a_heatmap_escapes_its_labels_and_carries_a_table_of_the_same_values():
    figure = heatmap(np.array([[0.25, 0.75], [1.0, 0.0]]), ["<b>", "y"], ["p", "q"], title="t & u")
    assert isinstance(figure, Figure)
    assert "<b>" not in figure.svg and "&lt;b&gt;" in figure.svg and "t &amp; u" in figure.svg
    assert "<td>0.25</td><td>0.75</td>" in figure.table and "<td>1.00</td><td>0.00</td>" in figure.table
    assert "p → q" not in figure.svg and "&lt;b&gt; → q: 0.75" in figure.svg


def test_a_heatmap_refuses_labels_that_do_not_fit_the_matrix():
    with pytest.raises(ValueError, match="2×2 but there are 3 row"):
        heatmap([[0.5, 0.5], [0.5, 0.5]], ["a", "b", "c"], ["a", "b"])
