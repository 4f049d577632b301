import numpy as np


def cross_entropy(logits, targets):
    top = logits.max(axis=-1, keepdims=True)  # (..., 1): the largest logit of each position
    log_probs = logits - (top + np.log(np.exp(logits - top).sum(axis=-1, keepdims=True)))  # (..., V)
    picked = np.take_along_axis(log_probs, targets[..., None], axis=-1)  # (..., 1): each target's
    return float(-picked.mean())
