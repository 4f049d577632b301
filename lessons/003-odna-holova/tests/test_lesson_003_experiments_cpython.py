"""Lesson 003's experiments (odna_holova, its package): gradients, the stated results, the stepper's states, Stop."""

import json

import numpy as np
import pytest
from odna_holova import features, induction, labels, sense, walkthrough

from course import control
from course.nn import train as training
from course.nn.layers import cross_entropy
from support import finite_difference, run_on_own_thread


@pytest.fixture
def stop_after(monkeypatch):
    """stop_after(n): the learner presses Stop while the n-th step from now runs; stop_after(None): never."""
    checks, limit = [], [None]

    def stop_requested():
        checks.append(1)
        return limit[0] is not None and len(checks) >= limit[0]

    def arrange(n):
        checks.clear()
        limit[0] = n
    monkeypatch.setattr(training.control, "stop_requested", stop_requested)
    yield arrange
    control.clear()


# The walk-through: the stepper's states are the toolkit's numbers.

@pytest.mark.parametrize("update, first", [(0, 0), (3, 1), (7, 0)])
def test_every_gradient_the_stepper_shows_matches_finite_differences_of_its_loss(update, first):
    found = walkthrough.state(update, first)
    words, target = found["stages"][0]["words"], found["stages"][0]["target"]
    model = walkthrough.model()
    walkthrough.load(model, walkthrough.parameters_after(update, first))
    ids = np.array([walkthrough.SENSE_VOCAB[word] for word in words])

    def loss():
        return cross_entropy(model.forward(ids)[0][None, :], np.array([target]))[0]

    shown = found["stages"][6]["gradients"]
    for name, short in walkthrough.GROUPS.items():
        value = model.parameters()[name]
        for index in np.ndindex(value.shape):
            assert abs(np.array(shown[short])[index] - finite_difference(loss, value, index)) < 2e-6, (short, index)
    assert abs(found["stages"][5]["loss"] - loss()) < 1e-6


def test_the_mixture_stage_is_bank_reading_the_sentence_with_its_scaled_scores():
    mixture = walkthrough.state(2, 0)["stages"][3]
    scores = np.array(mixture["dots"]) / np.sqrt(2)
    np.testing.assert_allclose(mixture["scores"], scores, atol=2e-6)
    np.testing.assert_allclose(mixture["weights"], np.exp(scores) / np.exp(scores).sum(), atol=2e-6)
    V = np.array(walkthrough.state(2, 0)["stages"][2]["V"])
    np.testing.assert_allclose(mixture["mixture"], np.array(mixture["weights"]) @ V, atol=5e-6)


def test_the_absent_words_embedding_row_gets_exactly_no_gradient_and_the_others_do():
    for first, absent in ((0, "money"), (1, "river")):
        stage = walkthrough.state(0, first)["stages"][6]
        assert stage["absent"] == [absent] and stage["absent_rows"] == [walkthrough.WORDS.index(absent)]
        rows = stage["gradients"]["E"]
        assert rows[walkthrough.WORDS.index(absent)] == [0.0, 0.0]
        assert all(any(value != 0 for value in row) for i, row in enumerate(rows) if walkthrough.WORDS[i] != absent)


def test_an_update_is_one_sgd_step_at_0_3_and_the_next_state_starts_from_it():
    for update in range(4):
        found = walkthrough.state(update, 0)
        grads, after = found["stages"][6]["gradients"], found["stages"][7]["parameters"]
        before = {"E": found["stages"][1]["E"], "Wq": found["stages"][2]["Wq"], "Wk": found["stages"][2]["Wk"],
                  "Wv": found["stages"][2]["Wv"], "W": found["stages"][4]["W"], "b": found["stages"][4]["b"]}
        for short in walkthrough.GROUPS.values():
            np.testing.assert_allclose(np.array(before[short]) - 0.3 * np.array(grads[short]), after[short], atol=2e-6)
        following = walkthrough.state(update + 1, 0)["stages"]
        assert following[1]["E"] == after["E"] and following[2]["Wq"] == after["Wq"] and following[4]["b"] == after["b"]
        assert found["stages"][7]["loss_after"] < found["stages"][5]["loss"]  # the step helped the example it used


def test_training_more_alternates_the_two_sentences_and_reset_is_the_same_seeded_start():
    assert [walkthrough.state(k, 0)["stages"][0]["words"][1] for k in range(4)] == ["river", "money"] * 2
    assert [walkthrough.state(k, 1)["stages"][0]["words"][1] for k in range(4)] == ["money", "river"] * 2
    fresh = walkthrough.model().parameters()
    start = walkthrough.state(0, 0)["stages"]
    np.testing.assert_allclose(start[1]["E"], fresh["embedding.E"], atol=1e-6)
    assert start[4]["b"] == [0.0, 0.0]  # the classifier bias starts at zero
    assert walkthrough.state(0, 1)["stages"][1]["E"] == start[1]["E"]


def test_states_past_the_precomputed_ones_are_the_same_whether_or_not_the_path_was_cached():
    late = walkthrough.state(walkthrough.PRECOMPUTED + 5, 1)
    walkthrough._trajectories.clear()
    assert walkthrough.state(walkthrough.PRECOMPUTED + 5, 1) == late


def test_the_precomputed_states_are_json_and_equal_the_computed_ones():
    data = json.loads(json.dumps(walkthrough.precomputed()))
    assert data["precomputed"] == walkthrough.PRECOMPUTED and data["stages"] == list(walkthrough.STAGES)
    assert [stage["stage"] for stage in data["states"][0][0]["stages"]] == list(walkthrough.STAGES)
    assert data["states"][1][walkthrough.PRECOMPUTED - 1] == walkthrough.state(walkthrough.PRECOMPUTED - 1, 1)


@pytest.mark.parametrize("first, settled", [(0, 14), (1, 15)])
def test_alternating_updates_first_flip_the_prediction_then_classify_both_sentences_within_the_precomputed_steps(
        first, settled):
    def right(update):
        stages = walkthrough.state(update, first)["stages"]
        return stages[4]["predicted"] == stages[0]["target"]
    assert not any(right(update) for update in range(1, settled))  # each step overshoots toward the last sentence
    assert all(right(update) for update in range(settled, 80)) and settled < walkthrough.PRECOMPUTED
    assert walkthrough.state(101, first)["stages"][5]["loss"] < 0.01


# The 8-dimensional sense classifier.

def test_the_sense_classifier_has_242_parameters_in_the_groups_read_from_the_model(capsys):
    model = sense.build()
    assert sense.parameter_groups(model) == [("embedding.E", (4, 8), 32), ("q.W", (8, 8), 64), ("k.W", (8, 8), 64),
                                             ("v.W", (8, 8), 64), ("classifier.W", (8, 2), 16),
                                             ("classifier.b", (2,), 2)]
    sense.show_parameters(model)
    assert capsys.readouterr().out.splitlines()[-1] == "32 + 64 + 64 + 64 + 16 + 2 = 242"


def test_the_sense_classifier_reproduces_the_seeds_printed_result(capsys):
    model = sense.build()
    record = run_on_own_thread(sense.train(model, report=False))
    assert record["steps"] == 1200 and not record["stopped"] and len(record["losses"]) == 300
    sense.show_predictions(model)
    assert capsys.readouterr().out == ("['the', 'river', 'bank'] prediction: 0\n{'the': 0.0, 'river': 1.0, 'bank': 0.0}\n"
                                       "['the', 'money', 'bank'] prediction: 1\n{'the': 0.0, 'money': 1.0, 'bank': 0.0}\n")
    assert [found["prediction"] for found in sense.predictions(model)] == [0, 1, 0, 1]
    sense.show_changes(sense.build(), model)
    changes = capsys.readouterr().out.splitlines()
    assert len(changes) == 6 and all(float(line.split()[-1]) > 0.05 for line in changes)  # every group trained


def test_the_sense_classifiers_progress_ends_at_the_last_pass(monkeypatch):
    shown = []
    monkeypatch.setattr(training.runner, "progress", shown.append)
    run_on_own_thread(sense.train(sense.build(), passes=20))
    assert {k: shown[-1][k] for k in ("epoch", "epochs", "step", "steps")} == {"epoch": 20, "epochs": 20,
                                                                                "step": 80, "steps": 80}


@pytest.mark.parametrize("module, passes, per_pass", [(sense, 2, 4), (labels, 2, 6)], ids=["sense", "labels"])
def test_stop_ends_a_classifier_between_two_steps_with_the_model_as_those_steps_left_it(stop_after, monkeypatch,
                                                                                           module, passes, per_pass):
    shown = []
    monkeypatch.setattr(training.runner, "progress", shown.append)
    stop_after(passes * per_pass)
    stopped = module.build()
    record = run_on_own_thread(module.train(stopped))
    assert record["stopped"] and record["steps"] == passes * per_pass and shown[-1]["stopped"]
    stop_after(None)
    same = module.build()
    run_on_own_thread(module.train(same, passes=passes, report=False))
    for name, value in same.parameters().items():
        np.testing.assert_array_equal(stopped.parameters()[name], value)


# Feature recovery.

def test_the_fixed_key_heads_gradients_match_finite_differences():
    head = features.build(seed=3)
    r, S, targets = features.data(5, seed=4)
    out, cache = head.forward(r, S)
    grads = head.backward(features.mse(out, targets)[1], cache)[1]
    assert set(grads) == set(head.parameters()) == {"Wq", "Wv"}  # the keys are not learned
    for name, value in head.parameters().items():
        for index in [(0, 0), (2, 1), (5, 2), (8, 0)]:
            expected = finite_difference(lambda: features.mse(head.forward(r, S)[0], targets)[0], value, index)
            assert abs(grads[name][index] - expected) < 1e-7, (name, index)


@pytest.fixture(scope="module")
def trained_head():
    head = features.build()
    run_on_own_thread(features.train(head, report=False))
    return head


def test_the_learned_maps_read_the_teachers_features_and_ignore_the_others(trained_head):
    for row in features.recovery(trained_head):
        for map_name in ("query", "value"):
            teacher = row[map_name + "_teacher"]
            assert abs(row[map_name] - teacher) < 0.1 * max(teacher, 1), (row["feature"], map_name)
    worst = features.largest_differences(trained_head)
    assert worst["Wq"] < 0.15 and worst["Wv"] < 0.05


def test_held_out_predictions_are_close_and_far_better_than_the_baseline(trained_head):
    found = features.held_out(trained_head)
    assert found["mse"] < 0.01 * found["baseline"]


def test_only_moving_a_relevant_feature_moves_the_output(trained_head):
    for row in features.interventions(trained_head):
        receiving_relevant, sources_relevant = row["role"] == "query", row["role"] == "value"
        assert (row["receiving"] > 0.3) == receiving_relevant, row
        assert (row["sources"] > 0.3) == sources_relevant, row
        assert row["receiving"] < 0.1 or receiving_relevant
        assert row["sources"] < 0.1 or sources_relevant


def test_stop_ends_feature_training_between_two_steps(stop_after):
    stop_after(5)
    head = features.build()
    record = run_on_own_thread(features.train(head, report=False))
    assert record["stopped"] and record["steps"] == 5
    stop_after(None)
    same = features.build()
    run_on_own_thread(features.train(same, steps=5, report=False))
    np.testing.assert_array_equal(head.params["Wq"], same.params["Wq"])


# Arbitrary labels.

def test_every_assigned_label_is_learned_including_opposite_labels_for_two_synonyms(capsys):
    model = labels.build()
    run_on_own_thread(labels.train(model, report=False))
    rows = labels.rows(model)
    assert [row["prediction"] for row in rows] == [label for _, label in labels.CONTEXTS]
    by_word = {row["context"]: row["prediction"] for row in rows}
    assert by_word["lawyer"] != by_word["attorney"]
    assert all(0 <= row["attention"] <= 1 for row in rows)
    labels.show_table(model, words={"river": "річка"}, labels=("вода", "фінанси"))
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 7 and lines[1].split()[:3] == ["річка", "вода", "вода"]


# Induction heads.

def test_the_training_sequences_repeat_a_block_of_distinct_tokens():
    tokens, period, predictable = induction.sequences(50, seed=7)
    assert tokens.shape == (50, induction.LENGTH + 1) and set(period) <= set(range(4, 9))
    for row, p, mask in zip(tokens, period, predictable):
        assert len(set(row[:p])) == p and np.all(row[p:] == row[:-p])
        assert mask.tolist() == [i + 1 >= p for i in range(induction.LENGTH)]


def test_the_uniform_baseline_is_what_an_evenly_spread_head_scores():
    model = induction.build()
    found = induction.scores(model)
    tokens, period, _ = induction.held_out()
    ids = tokens[:, :-1]
    shares = []  # by hand: at position i, an even head gives each of i + 1 positions 1 / (i + 1)
    for row, p in zip(ids, period):
        for i in range(p, len(row)):
            shares.append(sum(1 for j in range(1, i + 1) if row[j - 1] == row[i]) / (i + 1))
    assert abs(found["baseline"]["induction"] - np.mean(shares)) < 1e-12
    assert abs(found["baseline"]["previous"] - np.mean([1 / (i + 1) for i in range(1, ids.shape[1])])) < 1e-12


@pytest.fixture(scope="module")
def trained_models():
    found = {}
    for seed in range(induction.CHECKED_SEEDS):
        model = induction.build(seed)
        found[seed] = (model, run_on_own_thread(induction.train(model, seed=seed, report=False)))
    return found


@pytest.mark.parametrize("seed", range(induction.CHECKED_SEEDS))
def test_a_second_layer_head_scores_clearly_above_the_baseline_as_an_induction_head(trained_models, seed):
    model, record = trained_models[seed]
    assert record["steps"] == induction.STEPS and len(record["step_losses"]) == induction.STEPS
    found = induction.scores(model)
    baseline = found["baseline"]["induction"]
    second = [row["induction"] for row in found["heads"] if row["layer"] == 1]
    first = [row["induction"] for row in found["heads"] if row["layer"] == 0]
    assert max(second) > induction.CHECKED_SCORE > 5 * baseline  # clearly above an evenly spread head
    assert max(first) < 0.35  # one layer alone cannot do induction here: the period varies
    assert induction.ablations(model)[0]["loss"] < induction.CHECKED_LOSS < record["step_losses"][0]


@pytest.mark.parametrize("seed", range(4))
def test_removing_any_head_raises_the_loss_on_repeated_sequences(trained_models, seed):
    found = induction.ablations(trained_models[seed][0])
    intact = found[0]["loss"]
    assert [row["layer"] for row in found[1:]] == [0, 0, 1, 1] and all(row["loss"] > intact for row in found[1:])


def test_the_patterns_are_the_four_heads_causal_maps_for_one_sequence(trained_models):
    found = induction.patterns(trained_models[0][0], index=3)
    maps = np.array(found["maps"])
    assert maps.shape == (2, 2, induction.LENGTH, induction.LENGTH) and len(found["tokens"]) == induction.LENGTH
    np.testing.assert_allclose(maps.sum(axis=-1), 1)
    assert np.all(maps[..., np.triu(np.ones((induction.LENGTH,) * 2, dtype=bool), k=1)] == 0)


def test_the_attention_figure_draws_the_four_heads_as_a_grid_of_layers_by_heads(trained_models):
    html = induction.attention_figure(trained_models[0][0], title="шар {layer}, голова {head}").html()
    assert html.count('<div class="figure-row">') == 2 and html.count("<svg") == 4
    assert "шар 2, голова 1" in html


def test_with_one_fixed_period_a_first_layer_head_looks_up_by_position_alone():
    model = induction.build()
    run_on_own_thread(induction.train(model, periods=(8, 8), report=False))
    first = [row["induction"] for row in induction.scores(model, periods=(8, 8))["heads"] if row["layer"] == 0]
    assert max(first) > 0.7


def test_stop_ends_the_induction_training_between_two_steps(stop_after):
    stop_after(5)
    model = induction.build()
    record = run_on_own_thread(induction.train(model, report=False))
    assert record["stopped"] and record["steps"] == 5 and len(record["step_losses"]) == 5
    stop_after(None)
    same = induction.build()
    run_on_own_thread(induction.train(same, steps=5, report=False))
    for name, value in same.parameters().items():
        np.testing.assert_array_equal(model.parameters()[name], value)
