"""Names as numbers: the corpus split into training and held-out names, a character vocabulary with an
end-of-name token, encode/decode, and the bigram baseline (counts -> probabilities -> loss).

The end-of-name token "." (id 0) marks where a name ends and, since the names are written one after the other,
where the next begins: a name reads ".emma." and the stream of names ".emma.liam.noah.".
"""

import numpy as np

from .corpus_en import TEXT

END = "."  # the end-of-name token, id 0
SPLIT_SEED = 6  # the shuffle that decides which names are held out
HELD_OUT = 0.1  # the share of names kept out of training, for the held-out loss


def names(text=TEXT):
    """The corpus's names, one per line, in the file's (sorted) order."""
    return [line for line in text.split("\n") if line]


def split(all_names, seed=SPLIT_SEED, share=HELD_OUT):
    """(training names, held-out names): shuffled with a fixed seed, the last `share` held out."""
    order = np.random.default_rng(seed).permutation(len(all_names))
    cut = len(all_names) - int(round(share * len(all_names)))
    return [all_names[i] for i in order[:cut]], [all_names[i] for i in order[cut:]]


class Vocabulary:
    """The end token and every character of the corpus, sorted: id 0 is END, the letters follow."""

    def __init__(self, all_names):
        self.chars = [END] + sorted(set("".join(all_names)))
        self.ids = {char: i for i, char in enumerate(self.chars)}

    def __len__(self):
        return len(self.chars)

    def encode(self, text):
        """A string -> its ids (int array); a character outside the vocabulary is refused by name."""
        unknown = sorted(set(text) - set(self.ids))
        if unknown:
            raise ValueError("{!r} is not in the vocabulary ({} characters): the corpus has only {}".format(
                "".join(unknown), len(self.chars), "".join(self.chars)))
        return np.array([self.ids[char] for char in text], dtype=np.int64)

    def decode(self, ids):
        """Ids -> the string they stand for."""
        return "".join(self.chars[int(i)] for i in ids)


def stream(some_names):
    """The names one after the other, each followed by the end token and the first one preceded by it."""
    return END + "".join(name + END for name in some_names)


def bigram_counts(ids, size):
    """counts[a, b]: how often id b follows id a in the stream of ids, (size, size) ints."""
    counts = np.zeros((size, size), dtype=np.int64)
    np.add.at(counts, (ids[:-1], ids[1:]), 1)
    return counts


def bigram_probabilities(counts, smoothing=1.0):
    """Each row of counts plus `smoothing`, divided by its sum: P(next | current), (size, size) floats."""
    smoothed = counts + smoothing
    return smoothed / smoothed.sum(axis=1, keepdims=True)


def bigram_loss(probabilities, ids):
    """The mean negative log-likelihood (nats) of every next id of `ids` under the bigram table."""
    return float(-np.log(probabilities[ids[:-1], ids[1:]]).mean())


def sample_bigram(probabilities, rng, max_length=30):
    """One name drawn from the bigram table: from the end token, one character at a time until the end token."""
    ids, current = [], 0
    for _ in range(max_length):
        current = int(rng.choice(len(probabilities), p=probabilities[current]))
        if current == 0:
            break
        ids.append(current)
    return ids
