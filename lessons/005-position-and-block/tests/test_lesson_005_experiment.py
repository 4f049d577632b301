"""Lesson 005's own layers: BareBlock, PostNormBlock and OrderModel's gradients against finite differences, and
the stack measurement the pre-norm/post-norm cell prints."""

import numpy as np
import pytest
from position_and_block.experiment import BareBlock, OrderModel, PostNormBlock, reversal_data, stack_gradients

from course.nn.layers import cross_entropy
from support import numeric_gradient


@pytest.mark.parametrize("make", [BareBlock, PostNormBlock], ids=["bare", "post-norm"])
def test_a_block_s_backward_matches_finite_differences_for_every_parameter_and_its_input(make):
    rng = np.random.default_rng(3)
    block = make(8, 2, 32, rng)
    x = rng.normal(size=(2, 5, 8))
    G = rng.normal(size=(2, 5, 8))

    def loss():
        return float((block.forward(x)[0] * G).sum())

    dx, grads = block.backward(G, block.forward(x)[1])
    assert sorted(grads) == sorted(block.parameters())
    for name, value in block.parameters().items():
        indices, expected = numeric_gradient(loss, value, picks=10)
        np.testing.assert_allclose([grads[name][i] for i in indices], expected, rtol=1e-5, atol=1e-7, err_msg=name)
    indices, expected = numeric_gradient(loss, x, picks=10)
    np.testing.assert_allclose([dx[i] for i in indices], expected, rtol=1e-5, atol=1e-7, err_msg="x")


@pytest.mark.parametrize("flags", [{}, {"positions": False}, {"residual": False}],
                         ids=["positions", "no-positions", "no-residual"])
def test_the_order_model_s_loss_gradient_matches_finite_differences(flags):
    model = OrderModel(width=8, heads=2, blocks=2, seed=1, **flags)
    X, Y = reversal_data(4, seed=5)

    def loss():
        return cross_entropy(model.forward(X)[0], Y)[0]

    logits, cache = model.forward(X)
    grads = model.backward(cross_entropy(logits, Y)[1], cache)
    assert sorted(grads) == sorted(model.parameters())
    for name, value in model.parameters().items():
        indices, expected = numeric_gradient(loss, value, picks=10)
        np.testing.assert_allclose([grads[name][i] for i in indices], expected, rtol=1e-4, atol=1e-8, err_msg=name)


def test_without_residuals_the_model_has_no_layer_norm_and_without_positions_no_table_is_added():
    bare, plain = OrderModel(residual=False), OrderModel(positions=False)
    assert not any("ln" in name for name in bare.parameters())
    X = reversal_data(3, seed=0)[0]
    shuffled = X[:, [5, 4, 3, 2, 1, 0]]
    # without positions the logits follow the digits: shuffling the input shuffles the output the same way
    np.testing.assert_allclose(plain.forward(shuffled)[0], plain.forward(X)[0][:, [5, 4, 3, 2, 1, 0]], atol=1e-10)


def test_the_stack_measure_returns_one_gradient_norm_per_block_first_to_last():
    x = np.random.default_rng(0).normal(size=(2, 4, 8))
    blocks = [PostNormBlock(8, 2, 32, np.random.default_rng(i)) for i in range(3)]
    norms = stack_gradients(blocks, x)
    assert len(norms) == 3 and all(norm > 0 for norm in norms)
    assert norms == stack_gradients(blocks, x)  # the loss's direction is seeded


def test_the_sizes_the_model_reports_are_those_of_its_parameters():
    model = OrderModel(width=16, heads=2, blocks=2, seed=0)
    parameters = model.parameters()
    assert parameters["embedding.E"].shape[1] == model.width == 16
    assert parameters["block1.mlp.up.W"].shape[1] == model.hidden == 64
    assert model.children["block1"].children["attention"].heads == model.heads == 2
