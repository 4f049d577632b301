import numpy as np


def cross_entropy(logits, targets):
    # log-probabilities: each row of logits minus its log-sum-exp (subtract the row's largest logit before np.exp)
    ...
    # the log-probability of each position's target, then the mean of their negatives
    ...
    return loss
