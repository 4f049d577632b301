"""The NumPy toolkit: gradients against finite differences, parameter counts, and training behaviour."""


import numpy as np
import pytest

from course import control, numbers
from course.nn.layers import (
    MLP,
    AttentionOnlyBlock,
    Embedding,
    LayerNorm,
    Linear,
    MultiHeadAttention,
    TransformerBlock,
    attention,
    attention_backward,
    cross_entropy,
    positional_encoding,
)
from course.nn.models import AttentionOnlyTransformer, SenseClassifier, SequenceTransformer, causal_mask
from course.nn.optim import SGD, Adam, Flat
from course.nn.train import accuracies, digit_sequences, train_sequences, train_steps
from support import numeric_gradient, run_on_own_thread

F64 = np.float64
CAUSAL = np.triu(np.ones((5, 5), dtype=bool), k=1)


def assert_gradients_match(layer, x, forward_args=(), seed=0):
    """Check d(sum(out * G))/d(param) and d/dx from backward against finite differences."""
    rng = np.random.default_rng(seed)
    out, _ = layer.forward(x, *forward_args)
    G = rng.normal(size=out.shape)

    def loss():
        return float((layer.forward(x, *forward_args)[0] * G).sum())

    _, cache = layer.forward(x, *forward_args)
    dx, grads = layer.backward(G, cache)
    for name, value in layer.parameters().items():
        indices, expected = numeric_gradient(loss, value, seed=seed)
        got = np.array([grads[name][index] for index in indices])
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-7, err_msg=name)
    if dx is not None and x.dtype.kind == "f":
        indices, expected = numeric_gradient(loss, x, seed=seed)
        np.testing.assert_allclose([dx[index] for index in indices], expected, rtol=1e-5, atol=1e-7, err_msg="x")


@pytest.fixture
def rng():
    return np.random.default_rng(3)


def test_linear_gradients_with_and_without_bias(rng):
    assert_gradients_match(Linear(4, 3, rng, dtype=F64), rng.normal(size=(2, 5, 4)))
    assert_gradients_match(Linear(4, 3, rng, bias=False, dtype=F64), rng.normal(size=(5, 4)))


def test_embedding_gradients_add_up_over_repeated_ids(rng):
    layer = Embedding(6, 4, rng, dtype=F64)
    assert_gradients_match(layer, np.array([[1, 2, 1], [5, 1, 0]]))


def test_layer_norm_gradients(rng):
    assert_gradients_match(LayerNorm(6, dtype=F64), rng.normal(size=(2, 3, 6)))


@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_mlp_gradients(rng, activation):
    assert_gradients_match(MLP(4, 7, rng, activation, dtype=F64), rng.normal(size=(2, 3, 4)))


@pytest.mark.parametrize("mask", [None, CAUSAL], ids=["full", "causal"])
def test_multi_head_attention_gradients(rng, mask):
    assert_gradients_match(MultiHeadAttention(8, 2, rng, dtype=F64), rng.normal(size=(2, 5, 8)), (mask,))


@pytest.mark.parametrize("mask", [None, CAUSAL], ids=["full", "causal"])
def test_transformer_block_gradients(rng, mask):
    assert_gradients_match(TransformerBlock(8, 2, 12, rng, "gelu", dtype=F64), rng.normal(size=(2, 5, 8)), (mask,))


@pytest.mark.parametrize("ablate", [[0], [1], [0, 1]])
def test_multi_head_attention_gradients_with_heads_ablated(rng, ablate):
    assert_gradients_match(MultiHeadAttention(8, 2, rng, dtype=F64), rng.normal(size=(2, 5, 8)), (CAUSAL, ablate))


def test_ablating_a_head_is_the_same_as_zeroing_its_values(rng):
    layer = MultiHeadAttention(8, 2, rng, dtype=F64)
    x = rng.normal(size=(2, 5, 8))
    ablated = layer.forward(x, CAUSAL, [1])[0]
    maps = layer.maps.copy()
    v = layer.children["v"].params
    v["W"][:, 4:] = 0  # head 2 owns columns 4 … 7 of every projection
    v["b"][4:] = 0
    np.testing.assert_allclose(layer.forward(x, CAUSAL)[0], ablated, atol=1e-12)
    np.testing.assert_allclose(layer.maps, maps)  # ablation removes what a head writes, not where it looks


@pytest.mark.parametrize("ablate", [[0], [0, 1]])
def test_transformer_block_gradients_with_heads_ablated(rng, ablate):
    assert_gradients_match(TransformerBlock(8, 2, 12, rng, dtype=F64), rng.normal(size=(2, 5, 8)), (CAUSAL, ablate))


def test_removing_a_blocks_attention_in_the_sequence_transformer_is_zeroing_its_values():
    model = SequenceTransformer(width=8, heads=2, blocks=2, hidden=12, seed=3, dtype=F64)
    ids = np.random.default_rng(4).integers(0, 10, size=(3, 8))
    ablated = model.forward(ids, ablate=[(0, 0), (0, 1)])[0]
    assert not np.allclose(model.forward(ids)[0], ablated)
    v = model.children["block1"].children["attention"].children["v"].params
    v["W"][:] = 0  # every head of block 1 then writes nothing, as the ablation says
    v["b"][:] = 0
    np.testing.assert_allclose(model.forward(ids)[0], ablated, atol=1e-12)


def test_ablating_a_head_that_does_not_exist_says_which_heads_do(rng):
    with pytest.raises(ValueError, match="no head 2 to ablate: heads are numbered 0 to 1"):
        MultiHeadAttention(8, 2, rng).forward(rng.normal(size=(1, 3, 8)).astype(np.float32), None, [2])
    with pytest.raises(ValueError, match="no layer 2 to ablate: layers are numbered 0 to 1"):
        AttentionOnlyTransformer(5, 4, width=8, seed=0).forward(np.zeros((1, 4), dtype=int), ablate=[(2, 0)])


@pytest.mark.parametrize("mask", [None, CAUSAL], ids=["full", "causal"])
def test_attention_only_block_gradients(rng, mask):
    assert_gradients_match(AttentionOnlyBlock(8, 2, rng, dtype=F64), rng.normal(size=(2, 5, 8)), (mask,))


@pytest.mark.parametrize("ablate", [None, [(0, 1)], [(1, 0), (0, 0)]], ids=["intact", "one", "two"])
def test_attention_only_transformer_gradients(ablate):
    model = AttentionOnlyTransformer(vocab=6, length=5, width=8, heads=2, layers=2, seed=1, dtype=F64)
    ids = np.random.default_rng(0).integers(0, 6, size=(3, 5))
    targets = np.roll(ids, -1, axis=1)
    logits, cache = model.forward(ids, ablate)
    grads = model.backward(cross_entropy(logits, targets)[1], cache)
    assert set(grads) == set(model.parameters())
    for name, value in model.parameters().items():
        indices, expected = numeric_gradient(lambda: cross_entropy(model.forward(ids, ablate)[0], targets)[0], value,
                                             picks=4)
        np.testing.assert_allclose([grads[name][i] for i in indices], expected, rtol=1e-4, atol=1e-8, err_msg=name)


def test_the_attention_only_transformer_is_causal_and_keeps_every_heads_map():
    model = AttentionOnlyTransformer(vocab=6, length=5, width=8, heads=2, layers=2, seed=1, dtype=F64)
    ids = np.array([[1, 2, 3, 4, 5]])
    logits = model.forward(ids)[0]
    changed = model.forward(np.array([[1, 2, 3, 0, 0]]))[0]
    np.testing.assert_allclose(changed[0, :3], logits[0, :3])  # a later token never changes an earlier prediction
    assert [maps.shape for maps in model.maps()] == [(1, 2, 5, 5)] * 2
    assert np.all(model.maps()[1][..., causal_mask(5)] == 0)


def test_attention_gradients_with_a_mask(rng):
    Q, K, V = (rng.normal(size=(3, 5, 4)) for _ in range(3))
    G = rng.normal(size=(3, 5, 4))
    out, A, cache = attention(Q, K, V, CAUSAL)
    dQ, dK, dV = attention_backward(G, cache)
    for array, grad in ((Q, dQ), (K, dK), (V, dV)):
        indices, expected = numeric_gradient(lambda: float((attention(Q, K, V, CAUSAL)[0] * G).sum()), array)
        np.testing.assert_allclose([grad[i] for i in indices], expected, rtol=1e-5, atol=1e-8)
    assert np.allclose(A.sum(axis=-1), 1) and np.all(A[..., CAUSAL] == 0)


def test_a_mask_that_hides_a_whole_row_is_an_error_not_nan(rng):
    Q = rng.normal(size=(4, 2))
    with pytest.raises(ValueError, match="hides every position from row 0"):
        attention(Q, Q, Q, np.triu(np.ones((4, 4), dtype=bool), k=0))


def test_the_mask_error_names_numpy_s_causal_mask_which_attention_then_accepts(rng):
    Q = rng.normal(size=(4, 2))
    with pytest.raises(ValueError) as raised:
        attention(Q, Q, Q, np.triu(np.ones((4, 4), dtype=bool), k=0))
    assert "k=1" in str(raised.value) and "diagonal=1" not in str(raised.value)
    _, weights, _ = attention(Q, Q, Q, np.triu(np.ones((4, 4), dtype=bool), k=1))
    assert np.allclose(np.tril(weights).sum(axis=-1), 1)


def test_cross_entropy_gradient(rng):
    logits = rng.normal(size=(2, 3, 5))
    targets = rng.integers(0, 5, size=(2, 3))
    _, dlogits = cross_entropy(logits, targets)
    indices, expected = numeric_gradient(lambda: cross_entropy(logits, targets)[0], logits)
    np.testing.assert_allclose([dlogits[i] for i in indices], expected, rtol=1e-5, atol=1e-9)


@pytest.mark.parametrize("positions", [True, False])
def test_whole_sequence_model_gradients(positions):
    model = SequenceTransformer(vocab=5, length=4, width=8, heads=2, blocks=2, hidden=12, positions=positions,
                                seed=1, dtype=F64)
    ids = np.random.default_rng(0).integers(0, 5, size=(3, 4))
    targets = np.sort(ids, axis=1)
    logits, cache = model.forward(ids)
    grads = model.backward(cross_entropy(logits, targets)[1], cache)
    for name, value in model.parameters().items():
        indices, expected = numeric_gradient(lambda: cross_entropy(model.forward(ids)[0], targets)[0], value, picks=4)
        np.testing.assert_allclose([grads[name][i] for i in indices], expected, rtol=1e-4, atol=1e-8, err_msg=name)


def test_sense_classifier_gradients_and_its_242_parameters():
    model = SenseClassifier(seed=2, dtype=F64)
    assert model.count() == 242
    ids = np.array([0, 1, 3])
    logits, cache = model.forward(ids)
    target = np.array([1])
    grads = model.backward(cross_entropy(logits[None], target)[1][0], cache)
    for name, value in model.parameters().items():
        indices, expected = numeric_gradient(lambda: cross_entropy(model.forward(ids)[0][None], target)[0], value,
                                             picks=5)
        np.testing.assert_allclose([grads[name][i] for i in indices], expected, rtol=1e-5, atol=1e-9, err_msg=name)


@pytest.mark.parametrize("heads", [8, 2])
def test_a_block_of_width_128_has_198272_parameters_whatever_its_heads(heads):
    assert TransformerBlock(128, heads, 512, np.random.default_rng(0)).count() == 198_272


def test_positional_encoding_alternates_sine_and_cosine():
    table = positional_encoding(8, 6)
    assert table.shape == (8, 6) and table.dtype == np.float32
    assert np.allclose(table[0, 0::2], 0) and np.allclose(table[0, 1::2], 1)
    assert np.allclose(table[3, 2], np.sin(3 / 10000 ** (2 / 6)), atol=1e-6)


def test_optimizers_reduce_a_quadratic():
    for make in (lambda p: SGD(p, lr=0.1), lambda p: Adam(p, lr=0.1)):
        params = {"w": np.array([3.0, -2.0])}
        optimizer = make(params)
        for _ in range(200):
            optimizer.step({"w": 2 * params["w"]})
        assert np.abs(params["w"]).max() < 0.05


def test_a_flat_optimizer_takes_exactly_the_steps_of_the_optimizer_on_separate_arrays():
    models = [SenseClassifier(seed=4, dtype=F64) for _ in range(2)]
    optimizers = [Adam(models[0].parameters(), lr=0.05), Flat(models[1], lambda p: Adam(p, lr=0.05))]
    ids, target = np.array([0, 2, 3]), np.array([1])
    for _ in range(5):
        for model, optimizer in zip(models, optimizers):
            logits, cache = model.forward(ids)
            optimizer.step(model.backward(cross_entropy(logits[None], target)[1][0], cache))
    flat = models[1].parameters()
    for name, value in models[0].parameters().items():
        np.testing.assert_array_equal(flat[name], value)
    assert not np.array_equal(flat["q.W"], SenseClassifier(seed=4, dtype=F64).parameters()["q.W"])


def test_train_steps_records_every_step_and_the_mean_of_each_epoch():
    losses = [4.0, 2.0, 3.0, 1.0, 5.0]
    record = run_on_own_thread(train_steps(lambda i: losses[i], 5, per_epoch=2, report=False))
    assert record == {"losses": [3.0, 2.0, 5.0], "step_losses": losses, "steps": 5, "stopped": False}


def test_a_stop_ends_train_steps_after_the_step_that_was_running():
    done = []

    def step(i):
        done.append(i)
        if i == 6:
            control.request_stop()
        return 1.0

    try:
        record = run_on_own_thread(train_steps(step, 100, per_epoch=4, report=False))
    finally:
        control.clear()
    assert done == list(range(7)) and record["stopped"] and record["steps"] == 7 and len(record["losses"]) == 2


def train(model, X, Y, Xv, Yv, **options):
    """The history of a quiet training of `model` on (X, Y), validated on (Xv, Yv)."""
    return run_on_own_thread(train_sequences(model, X, Y, Xv, Yv, report=False, **options))


def sort_task(count, seed):
    X = digit_sequences(count, seed=seed)
    return X, np.sort(X, axis=1)


def test_a_small_transformer_learns_to_sort_digits():
    (X, Y), (Xv, Yv) = sort_task(4000, 1), sort_task(1000, 2)
    model = SequenceTransformer(width=32, heads=2, blocks=2, hidden=64, seed=0)
    history = train(model, X, Y, Xv, Yv, epochs=4, lr=1e-2)
    assert history[-1]["sequences"] > 0.9
    assert len(history) == 4 and history[-1]["loss"] < history[0]["loss"]


def test_the_training_table_writes_numbers_in_the_lesson_language(capsys, monkeypatch):
    monkeypatch.setattr(numbers, "_LANGUAGE", ["es"])
    (X, Y), (Xv, Yv) = sort_task(64, 1), sort_task(50, 2)
    model = SequenceTransformer(width=8, heads=1, blocks=1, hidden=8, seed=0)
    history = run_on_own_thread(train_sequences(model, X, Y, Xv, Yv, epochs=1, report=True))
    line = capsys.readouterr().out.strip()
    assert line == "Epoch 1: loss {}   digits {}   sequences {}".format(*(
        "{:.3f}".format(history[0]["loss"]).replace(".", ","),
        "{:.1%}".format(history[0]["digits"]).replace(".", ","),
        "{:.1%}".format(history[0]["sequences"]).replace(".", ",")))


def test_reversing_needs_positions():
    X, Xv = digit_sequences(3000, seed=3), digit_sequences(500, seed=4)
    results = {}
    for positions in (True, False):
        model = SequenceTransformer(width=32, heads=2, blocks=1, hidden=64, positions=positions, seed=0)
        results[positions] = train(model, X, X[:, ::-1], Xv, Xv[:, ::-1], epochs=3, lr=1e-2)[-1]["sequences"]
    assert results[True] > 0.95 and results[False] < 0.05


def test_accuracies_count_digits_and_whole_sequences():
    class Fixed:
        def predict(self, X):
            return np.array([[1, 2], [3, 3]])
    digits, sequences = accuracies(Fixed(), np.zeros((2, 2)), np.array([[1, 2], [3, 4]]))
    assert digits == 0.75 and sequences == 0.5


def test_the_sense_classifier_learns_the_seeds_four_examples_and_routes_to_the_cue():
    from odna_holova.sense import SENSE_DATA, SENSE_VOCAB, predictions

    from course.nn.train import fit_classifier
    model = SenseClassifier(seed=0)
    fit_classifier(model, SENSE_DATA, SENSE_VOCAB, steps=300, lr=0.05)
    found = predictions(model)
    assert [each["prediction"] for each in found] == [label for _, label in SENSE_DATA]
    assert {word: round(weight, 2) for word, weight in found[0]["attention"].items()} == {"the": 0.0, "river": 1.0,
                                                                                         "bank": 0.0}
    assert {word: round(weight, 2) for word, weight in found[1]["attention"].items()} == {"the": 0.0, "money": 1.0,
                                                                                         "bank": 0.0}
