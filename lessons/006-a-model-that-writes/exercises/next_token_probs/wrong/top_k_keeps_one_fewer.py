import numpy as np


def next_token_probs(logits, temperature, top_k, top_p):
    if temperature == 0:
        p = np.zeros(len(logits))
        p[np.argmax(logits)] = 1.0
        return p
    z = logits / temperature
    p = np.exp(z - z.max())
    p = p / p.sum()
    if top_k is not None:
        order = np.argsort(-p, kind="stable")
        p[order[top_k - 1:]] = 0.0
        p = p / p.sum()
    if top_p is not None:
        order = np.argsort(-p, kind="stable")
        ahead = np.cumsum(p[order]) - p[order]
        p[order[ahead >= top_p]] = 0.0
        p = p / p.sum()
    return p
