"""Optimizers that update a model's parameter arrays in place from a dict of gradients."""

import numpy as np


class SGD:
    """Plain gradient descent: p -= lr · g."""

    def __init__(self, params, lr=0.1):
        self.params, self.lr = params, lr

    def step(self, grads):
        for name, value in self.params.items():
            value -= self.lr * grads[name]


class Adam:
    """Adam (Kingma & Ba) with bias correction; `lr` may be changed between steps (schedules)."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        self.params, self.lr, self.betas, self.eps = params, lr, betas, eps
        self.m = {name: np.zeros_like(value) for name, value in params.items()}
        self.v = {name: np.zeros_like(value) for name, value in params.items()}
        self.t = 0

    def step(self, grads):
        self.t += 1
        b1, b2 = self.betas
        scale = self.lr * np.sqrt(1 - b2 ** self.t) / (1 - b1 ** self.t)
        for name, value in self.params.items():
            g = grads[name]
            self.m[name] = b1 * self.m[name] + (1 - b1) * g
            self.v[name] = b2 * self.v[name] + (1 - b2) * g * g
            value -= (scale * self.m[name] / (np.sqrt(self.v[name]) + self.eps)).astype(value.dtype)


class Flat:
    """An optimizer run on one flat array that holds every parameter of a model (see Layer.flatten).

    Same arithmetic, element by element, as the optimizer on the separate arrays; one update
    instead of one per array. make(params) builds the optimizer, e.g. lambda p: Adam(p, lr=0.05).
    """

    def __init__(self, model, make):
        self.names = list(model.parameters())
        self.optimizer = make({"all": model.flatten()})

    def step(self, grads):
        self.optimizer.step({"all": np.concatenate([grads[name].ravel() for name in self.names])})
