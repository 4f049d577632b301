import numpy as np


def next_token_probs(logits, temperature, top_k, top_p):
    if temperature == 0:  # greedy: all the mass on the argmax (np.argmax takes the lower id on a tie)
        p = np.zeros(len(logits))
        p[np.argmax(logits)] = 1.0
        return p
    z = logits / temperature
    p = np.exp(z - z.max())
    p = p / p.sum()  # the softmax: (V,)
    if top_k is not None:
        order = np.argsort(-p, kind="stable")  # most probable first, ties to the lower id
        p[order[top_k:]] = 0.0  # p is a new array: the logits stay as they were
        p = p / p.sum()
    if top_p is not None:
        order = np.argsort(-p, kind="stable")
        ahead = np.cumsum(p[order]) - p[order]  # the mass of the tokens ahead of each one
        p[order[ahead >= top_p]] = 0.0  # enough mass ahead already: not needed to reach top_p
        p = p / p.sum()
    return p
