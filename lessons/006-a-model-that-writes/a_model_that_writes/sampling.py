"""Sampling the next token: the distribution to draw from, shaped by temperature, top-k and top-p.

next_token_probs(logits (V,), temperature, top_k, top_p) -> (V,) float64, in this order: divide the logits by
the temperature (temperature 0: all the mass on the argmax); softmax; keep the top_k most probable (None keeps
all) and renormalize; keep the smallest set of the most probable whose mass reaches top_p, the token that
crosses it included (None keeps all), and renormalize again. Ties go to the lower token id.
sample_next draws one id from that vector with rng.choice; kept_tokens lists what survives, most probable first.
"""

import numpy as np


def most_probable_first(p):
    """The ids of `p` from the most probable to the least, ties in order of id."""
    return np.argsort(-p, kind="stable")


def next_token_probs(logits, temperature=1.0, top_k=None, top_p=None):
    """The probability vector (V,) to draw the next token from."""
    z = np.asarray(logits, dtype=np.float64)
    if temperature == 0:  # greedy: all the mass on the most probable, the lower id on a tie
        greedy = np.zeros(z.shape)
        greedy[int(np.argmax(z))] = 1.0
        return greedy
    z = z / temperature
    p = np.exp(z - z.max())
    p = p / p.sum()
    if top_k is not None:
        kept = np.zeros(p.shape, dtype=bool)
        kept[most_probable_first(p)[:top_k]] = True
        p = np.where(kept, p, 0.0)
        p = p / p.sum()
    if top_p is not None:
        order = most_probable_first(p)
        before = np.cumsum(p[order]) - p[order]  # the mass of the tokens ahead of each one
        kept = np.zeros(p.shape, dtype=bool)
        kept[order[before < top_p]] = True  # ahead of it, less than top_p: it is needed to reach top_p
        p = np.where(kept, p, 0.0)
        p = p / p.sum()
    return p


def sample_next(logits, rng, temperature=1.0, top_k=None, top_p=None, probabilities=next_token_probs):
    """One id drawn with rng.choice from probabilities(logits, temperature, top_k, top_p)."""
    p = np.asarray(probabilities(logits, temperature, top_k, top_p), dtype=np.float64)
    return int(rng.choice(len(p), p=p / p.sum()))


def kept_tokens(p):
    """The ids with probability above 0, most probable first."""
    return [int(i) for i in most_probable_first(p) if p[i] > 0]
