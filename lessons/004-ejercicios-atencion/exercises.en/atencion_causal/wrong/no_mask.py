"""Drops the mask altogether: rows add up to 1, but every word sees the whole sentence."""
import numpy as np

from course.attention import softmax


def causal_attention(Q, K, V):
    weights = softmax(Q @ K.T / np.sqrt(Q.shape[-1]), axis=-1)
    return weights @ V, weights
