"""The toolkit's GPT of the default size in CPython: time per training step, and per sampled token.

    .venv/bin/python benchmarks/gpt.py [--corpus es] [--steps 200] [--batch 32]

Trains course.nn.gpt.GPT with its default sizes on the windows of a corpus in lessons/corpora/ (one BLAS thread,
as the browser has), after a few untimed steps that warm the allocator and the caches, and prints the median and
mean time of a step over `steps` steps, then the time to sample 50 tokens one at a time with generate().
The browser's side of the ratio is for the lesson's own benchmark, which runs its training cell in Chromium.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ["OPENBLAS_NUM_THREADS"] = "1"  # before NumPy loads: the browser has one thread
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))

import numpy as np  # noqa: E402

from course.nn.gpt import GPT, GPTTraining, generate, windows  # noqa: E402

WARM_STEPS = 5


def corpus_ids(language):
    """The corpus's characters as ids of its sorted vocabulary, and the vocabulary's size."""
    text = (ROOT / "lessons" / "corpora" / "{}.txt".format(language)).read_text(encoding="utf-8")
    chars = sorted(set(text))
    index = {c: i for i, c in enumerate(chars)}
    return np.array([index[c] for c in text]), len(chars)


def step_times(training, steps):
    """The seconds of each of `steps` training steps, after WARM_STEPS untimed ones."""
    for _ in range(WARM_STEPS):
        training.step()
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        training.step()
        times.append(time.perf_counter() - start)
    return times


def main(argv=None):
    """Print the per-step and per-token times of the default GPT on one corpus."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="es", choices=("es", "uk", "en"))
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--batch", type=int, default=32)
    args = parser.parse_args(argv)
    ids, vocab = corpus_ids(args.corpus)
    model = GPT(vocab)
    X, Y = windows(ids, model.length)
    times = step_times(GPTTraining(model, X, Y, batch=args.batch), args.steps)
    print("GPT {} on {}.txt: {} parameters ({} KB as float32), {} windows of {}, batch {}".format(
        ", ".join("{}={}".format(k, v) for k, v in sorted(model.config.items()) if k != "seed"), args.corpus,
        model.count(), model.count() * 4 // 1024, len(X), model.length, args.batch))
    print("training step: median {:.2f} ms, mean {:.2f} ms over {} steps ({:.0f} steps/s)".format(
        1000 * statistics.median(times), 1000 * statistics.mean(times), len(times), 1 / statistics.mean(times)))
    start = time.perf_counter()
    generate(model, ids[:1], 50, np.random.default_rng(0))
    print("sampling: {:.2f} ms per token over 50 tokens".format(1000 * (time.perf_counter() - start) / 50))
    return 0


if __name__ == "__main__":
    sys.exit(main())
