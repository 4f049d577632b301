"""The toolkit's character-level GPT: gradients, causality, checkpoints, deterministic training, sampling."""

import io
import math

import numpy as np
import pytest

from course import control
from course.nn.gpt import GPT, Batches, GPTTraining, generate, load, mean_loss, save, windows
from course.nn.layers import cross_entropy
from support import finite_difference, run_on_own_thread

F64 = np.float64
NAMES = ("ana\nbeatriz\ncarmen\ndolores\nelena\nfrancisco\ngabriel\nhugo\nines\njavier\nlucia\nmanuel\nnuria\n"
         "oscar\npablo\nraquel\nsergio\nteresa\nvalentina\nxavier\n")


def encoded(text):
    """The text's characters as ids (sorted vocabulary) and the vocabulary's size."""
    chars = sorted(set(text))
    return np.array([chars.index(c) for c in text]), len(chars)


def tiny(dtype=F64, seed=1, activation="relu"):
    return GPT(vocab=6, length=5, width=8, heads=2, blocks=2, hidden=12, activation=activation, seed=seed, dtype=dtype)


@pytest.mark.parametrize("ablate, activation", [(None, "relu"), ([(1, 0)], "relu"), (None, "gelu")],
                         ids=["intact", "ablated", "gelu"])
def test_every_gradient_of_a_tiny_gpt_matches_central_differences_in_float64(ablate, activation):
    model = tiny(activation=activation)
    ids = np.random.default_rng(0).integers(0, 6, size=(3, 5))
    targets = np.roll(ids, -1, axis=1)
    logits, cache = model.forward(ids, ablate)
    grads = model.backward(cross_entropy(logits, targets)[1], cache)
    assert set(grads) == set(model.parameters()) and len(grads) == 2 + 2 * 16 + 3  # embeddings, 2 blocks, ln and unembed

    def loss():
        return cross_entropy(model.forward(ids, ablate)[0], targets)[0]

    for name, value in model.parameters().items():
        expected = np.array([finite_difference(loss, value, index) for index in np.ndindex(value.shape)])
        np.testing.assert_allclose(grads[name].ravel(), expected, rtol=1e-5, atol=1e-8, err_msg=name)


def test_changing_a_later_token_never_changes_an_earlier_positions_logits():
    model = tiny()
    ids = np.array([[1, 2, 3, 4, 5]])
    logits = model.forward(ids)[0]
    for cut in range(1, 5):
        changed = ids.copy()
        changed[0, cut:] = (changed[0, cut:] + 1) % 6
        other = model.forward(changed)[0]
        np.testing.assert_array_equal(other[0, :cut], logits[0, :cut])
        assert not np.allclose(other[0, cut], logits[0, cut])  # the changed position itself does change


def test_an_input_longer_than_the_context_or_not_a_batch_is_refused_with_the_fix():
    with pytest.raises(ValueError, match=r"at most 5 tokens at a time, not 6: pass ids\[:, -5:\]"):
        tiny().forward(np.zeros((1, 6), dtype=int))
    with pytest.raises(ValueError, match=r"ids must be \(batch, positions\), not of shape \(4,\)"):
        tiny().forward(np.zeros(4, dtype=int))


def test_a_checkpoint_loads_back_bit_for_bit_with_its_sizes():
    model = GPT(vocab=7, length=6, width=16, heads=2, blocks=1, seed=3)
    file = io.BytesIO()
    save(model, file)
    file.seek(0)
    again = load(file)
    assert again.config == model.config
    for name, value in model.parameters().items():
        assert again.parameters()[name].dtype == np.float32
        np.testing.assert_array_equal(again.parameters()[name], value, err_msg=name)
    ids = np.array([[0, 3, 6, 1]])
    np.testing.assert_array_equal(again.forward(ids)[0], model.forward(ids)[0])


def test_a_checkpoint_of_the_default_size_is_well_under_a_megabyte(tmp_path):
    model = GPT(vocab=40)
    save(model, tmp_path / "model.npz")
    assert (tmp_path / "model.npz").stat().st_size < 600_000
    assert model.count() * 4 < 600_000


def test_loading_a_file_that_is_not_a_checkpoint_says_so(tmp_path):
    np.savez(tmp_path / "other.npz", W=np.zeros(3))
    with pytest.raises(ValueError, match="not a GPT checkpoint"):
        load(tmp_path / "other.npz")


def test_windows_pair_each_stretch_with_the_next_one():
    X, Y = windows(np.arange(7), 3)
    np.testing.assert_array_equal(X, [[0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5]])
    np.testing.assert_array_equal(Y, X + 1)
    with pytest.raises(ValueError, match="no window of 3 tokens"):
        windows(np.arange(3), 3)


def test_batches_visit_every_row_once_per_epoch_in_a_fresh_order():
    batches = Batches(10, 4, seed=2)
    epochs = [np.concatenate([batches.next() for _ in range(batches.per_epoch)]) for _ in range(3)]
    for rows in epochs:
        assert sorted(rows.tolist()) == list(range(10))
    assert epochs[0].tolist() != epochs[1].tolist()
    again = Batches(10, 4, seed=2)
    assert np.concatenate([again.next() for _ in range(3)]).tolist() == epochs[0].tolist()


def trained(steps, seed=0):
    """A small GPT trained for `steps` steps on NAMES, with its training windows."""
    ids, vocab = encoded(NAMES)
    X, Y = windows(ids, 8)
    model = GPT(vocab, length=8, width=32, heads=2, blocks=2, seed=seed)
    record = run_on_own_thread(GPTTraining(model, X, Y, batch=32, lr=1e-2, seed=seed).run(steps, report=False))
    return model, X, Y, record


def test_training_from_a_seed_twice_gives_identical_weights():
    first, second = trained(6)[0], trained(6)[0]
    for name, value in first.parameters().items():
        np.testing.assert_array_equal(second.parameters()[name], value, err_msg=name)
    assert not np.array_equal(first.parameters()["block1.mlp.up.W"],
                              GPT(first.vocab, length=8, width=32, heads=2, blocks=2).parameters()["block1.mlp.up.W"])


def test_a_training_stopped_and_run_again_goes_on_exactly_where_it_stopped():
    ids, vocab = encoded(NAMES)
    X, Y = windows(ids, 8)
    whole, parts = (GPT(vocab, length=8, width=16, heads=2, blocks=1, seed=4) for _ in range(2))
    run_on_own_thread(GPTTraining(whole, X, Y, batch=16, seed=4).run(7, report=False))
    training = GPTTraining(parts, X, Y, batch=16, seed=4)
    step = training.step

    def stopping(i=None):
        loss = step(i)
        if len(training.step_losses) == 3:
            control.request_stop()
        return loss

    training.step = stopping
    try:
        first = run_on_own_thread(training.run(100, report=False))
    finally:
        control.clear()
    assert first["stopped"] and first["steps"] == 3
    training.step = step
    run_on_own_thread(training.run(4, report=False))
    for name, value in whole.parameters().items():
        np.testing.assert_array_equal(parts.parameters()[name], value, err_msg=name)


def bigram_loss(X, Y, vocab):
    """The loss of the best bigram model on these pairs: counts of (previous, next) made probabilities, then the mean
    negative log-likelihood of every pair."""
    counts = np.zeros((vocab, vocab))
    np.add.at(counts, (X.ravel(), Y.ravel()), 1)
    probs = counts / counts.sum(axis=1, keepdims=True)
    return float(-np.log(probs[X.ravel(), Y.ravel()]).mean())


def test_a_short_training_on_a_tiny_text_beats_the_bigram_baseline():
    model, X, Y, record = trained(300)
    baseline = bigram_loss(X, Y, model.vocab)
    assert not record["stopped"] and record["steps"] == 300
    assert mean_loss(model, X, Y) < baseline - 0.3 < math.log(model.vocab)


def test_generate_feeds_at_most_the_context_and_repeats_under_a_seed():
    model = tiny()
    fed = []
    forward = model.forward
    model.forward = lambda ids, ablate=None: (fed.append(ids.shape[1]), forward(ids, ablate))[1]
    text = generate(model, [1, 2], 12, np.random.default_rng(5))
    assert text.shape == (14,) and text[:2].tolist() == [1, 2] and max(fed) == 5 and fed[:4] == [2, 3, 4, 5]
    assert generate(model, [1, 2], 12, np.random.default_rng(5)).tolist() == text.tolist()


def test_generate_draws_from_the_probabilities_it_is_given_and_ends_after_the_stop_id():
    model = tiny()
    greedy = generate(model, [0], 6, np.random.default_rng(0), probabilities=lambda z: np.eye(6)[int(np.argmax(z))])
    for i in range(1, len(greedy)):
        assert greedy[i] == model.forward(greedy[None, max(0, i - 5):i])[0][0, -1].argmax()
    always_three = generate(model, [0], 6, np.random.default_rng(0), probabilities=lambda z: np.eye(6)[3], stop=3)
    assert always_three.tolist() == [0, 3]


def test_a_float32_model_samples_with_the_default_softmax():
    model = GPT(vocab=30, seed=2)
    text = generate(model, [0], 40, np.random.default_rng(1))
    assert text.shape == (41,) and 0 <= text.min() and text.max() < 30 and len(set(text.tolist())) > 5
