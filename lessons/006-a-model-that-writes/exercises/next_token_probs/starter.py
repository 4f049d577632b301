import numpy as np


def next_token_probs(logits, temperature, top_k, top_p):
    # temperature 0: all the mass on the argmax
    ...
    # divide the logits by the temperature, then the softmax (subtract the largest before np.exp)
    ...
    # top_k (unless None): keep the top_k most probable, ties to the lower id; renormalize
    ...
    # top_p (unless None): keep the most probable until their mass reaches top_p, the crossing token included;
    # renormalize
    ...
    return p
