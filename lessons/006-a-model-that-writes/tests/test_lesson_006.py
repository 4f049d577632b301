"""Lesson 006, a model that writes: its checker (reference, a rewrite, every known mistake with its own sentence),
its corpus copy, its quiz keys and numbers recomputed, and the shipped checkpoint trained again from its seed."""

import numpy as np
import pytest
from a_model_that_writes import checkpoint, text
from a_model_that_writes.checkpoint_data import HELD_OUT_LOSS, RECIPE

import support
from course.exercise import grade
from course.nn.gpt import generate, mean_loss
from coursebuild.lesson import read_lesson
from support import ROOT

SLUG = "006-a-model-that-writes"
FOLDER = ROOT / "lessons" / SLUG
LESSON = read_lesson(FOLDER / "lesson.md")[0]
CHECKER = "a_model_that_writes.checkers.cross_entropy"
REWRITE = (
    "import numpy as np\n"
    "def cross_entropy(logits, targets):\n"
    "    flat = logits.reshape(-1, logits.shape[-1])\n"
    "    rows = np.arange(flat.shape[0])\n"
    "    total = 0.0\n"
    "    for row, target in zip(flat, targets.reshape(-1)):\n"
    "        m = np.max(row)\n"
    "        total += m + np.log(np.sum(np.exp(row - m))) - row[target]\n"
    "    return total / len(rows)\n")


def quiz(key):
    """The lesson's quiz with this ':id:'."""
    return next(found for found in LESSON.quizzes if found.key == key)


def test_the_reference_and_a_different_correct_rewrite_pass():
    exercise = next(found for found in LESSON.exercises if found.id == "cross_entropy")
    assert grade(exercise.solution, CHECKER)["passed"]
    assert grade(REWRITE, CHECKER)["passed"]


def test_every_known_wrong_solution_fails_with_a_sentence_of_its_own():
    exercise = next(found for found in LESSON.exercises if found.id == "cross_entropy")
    assert len(exercise.wrong) >= 6
    sentences = {}
    for name, code in sorted(exercise.wrong.items()):
        result = grade(code, CHECKER)
        assert not result["passed"], name
        message = result["results"][-1]["message"]
        assert message.endswith("."), message
        sentences[name] = message.split(";", 1)[-1]
    assert len(set(sentences.values())) == len(sentences), sentences
    assert "overflow" in sentences["no_shift_overflows.py"]
    assert "mean" in sentences["sums_instead_of_mean.py"]


def test_the_corpus_module_is_the_shared_corpus_file():
    assert text.TEXT == (ROOT / "lessons" / "corpora" / "en.txt").read_text(encoding="utf-8")


def test_the_vocabulary_round_trips_and_the_quiz_keys_hold():
    all_names = text.names()
    vocabulary = text.Vocabulary(all_names)
    assert vocabulary.decode(vocabulary.encode(".emma.")) == ".emma."
    assert quiz("vocab-size").answer == len(vocabulary)
    assert abs(quiz("uniform-loss").answer - np.log(len(vocabulary))) < 1e-3
    training, held_out = text.split(all_names)
    assert not set(training) & set(held_out) and len(training) + len(held_out) == len(all_names)
    with pytest.raises(ValueError, match="not in the vocabulary"):
        vocabulary.encode("émile")


def test_the_bigram_table_is_counts_over_row_sums_and_its_loss_is_below_uniform():
    vocabulary, _, _, _, _ = checkpoint.data()
    training, held_out = text.split(text.names())
    ids = vocabulary.encode(text.stream(training))
    counts = text.bigram_counts(ids, len(vocabulary))
    assert counts.sum() == len(ids) - 1 and counts[0, 0] == 0  # no empty name
    table = text.bigram_probabilities(counts)
    assert np.allclose(table.sum(axis=1), 1)
    loss = text.bigram_loss(table, vocabulary.encode(text.stream(held_out)))
    assert loss < np.log(len(vocabulary))


# Retraining from the seed reproduces the shipped weights bit for bit only on a CPU whose float32 matrix kernels
# round as the machine that trained them did: on another (measured: an AVX-512 EPYC), 750 steps drift the weights
# by up to 0.46 and the held-out loss by 0.005 nats. So the retrained model is held to the recorded loss within
# RETRAIN_TOLERANCE, and the shipped weights to it exactly.
RETRAIN_TOLERANCE = 0.02  # nats


def test_the_checkpoint_retrains_from_its_seed_to_its_recorded_loss_and_beats_the_bigram():
    assert RECIPE == checkpoint.RECIPE
    retrained, _ = checkpoint.train()
    shipped = checkpoint.load_shipped()
    assert sorted(shipped.parameters()) == sorted(retrained.parameters())
    vocabulary, _, _, Xv, Yv = checkpoint.data()
    loss = mean_loss(shipped, Xv, Yv)
    assert abs(loss - HELD_OUT_LOSS) < 1e-6
    assert abs(mean_loss(retrained, Xv, Yv) - HELD_OUT_LOSS) < RETRAIN_TOLERANCE
    training, held_out = text.split(text.names())
    table = text.bigram_probabilities(text.bigram_counts(vocabulary.encode(text.stream(training)), len(vocabulary)))
    assert loss < text.bigram_loss(table, vocabulary.encode(text.stream(held_out))) - 0.1
    assert len(checkpoint.to_text(shipped)) < 1_000_000


@pytest.mark.xfail(strict=True, reason="issue 57 asks for it, but the shipped checkpoint (width 32, 750 steps) writes about "
                   "1 name in 200 from the corpus, no more than the bigram: a larger or longer-trained model is needed")
def test_the_trained_model_writes_more_real_names_than_the_bigram():
    vocabulary, _, _, _, _ = checkpoint.data()
    all_names = text.names()
    training, _ = text.split(all_names)
    table = text.bigram_probabilities(text.bigram_counts(vocabulary.encode(text.stream(training)), len(vocabulary)))
    model, known = checkpoint.load_shipped(), set(all_names)
    shares = []
    for seed in (6, 7):  # the page's seed and one more
        rng = np.random.default_rng(seed)
        written = [vocabulary.decode(generate(model, [0], 20, rng, stop=0)[1:]).rstrip(".") for _ in range(200)]
        rng = np.random.default_rng(seed)
        bigram = [vocabulary.decode(text.sample_bigram(table, rng)) for _ in range(200)]
        shares.append((np.mean([w in known for w in written]), np.mean([w in known for w in bigram])))
    assert all(gpt > bigram for gpt, bigram in shares), shares


def run_cells(*keys):
    """The lesson's cells with these ':id:'s, run as the page runs them."""
    return support.run_cells(LESSON, *keys)


def test_the_forward_pass_written_out_in_the_page_gives_the_models_logits():
    cells = run_cells("vocabulary", "bigram", "checkpoint", "forward")
    written_out, model, X_held = cells["gpt_forward"], cells["model"], cells["X_held"]
    assert cells["gap"] < 1e-4
    for ids in (X_held[100:140], X_held[7:9, :5]):  # other windows, and shorter ones
        assert np.abs(written_out(model.parameters(), ids) - model.forward(ids)[0]).max() < 1e-4
    other = checkpoint.fresh_model(model.vocab)  # other weights: the cell must read the ones it is given
    gap = np.abs(written_out(other.parameters(), X_held[:4]) - other.forward(X_held[:4])[0]).max()
    assert gap < 1e-4
    assert np.abs(other.forward(X_held[:4])[0] - model.forward(X_held[:4])[0]).max() > 1e-2
