"""Lesson 006, a model that writes: its checker (reference, a rewrite, every known mistake with its own sentence),
its corpus copy, its quiz keys and numbers recomputed, and the shipped checkpoint trained again from its seed."""

import re

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


# The sampling section: next_token_probs's checker, the package's sampler, and the cells that use them.

SAMPLER_CHECKER = "a_model_that_writes.checkers.next_token_probs"
SAMPLER_REWRITE = (  # loops and sorted() instead of argsort and cumsum
    "import math\n"
    "import numpy as np\n"
    "def next_token_probs(logits, temperature, top_k, top_p):\n"
    "    values = [float(v) for v in logits]\n"
    "    n = len(values)\n"
    "    if temperature == 0:\n"
    "        best = max(range(n), key=lambda i: (values[i], -i))\n"
    "        return np.array([1.0 if i == best else 0.0 for i in range(n)])\n"
    "    scaled = [v / temperature for v in values]\n"
    "    top = max(scaled)\n"
    "    weights = [math.exp(v - top) for v in scaled]\n"
    "    probs = [w / sum(weights) for w in weights]\n"
    "    def cut(probs, keep):\n"
    "        kept = [probs[i] if i in keep else 0.0 for i in range(n)]\n"
    "        total = sum(kept)\n"
    "        return [k / total for k in kept]\n"
    "    ranked = lambda probs: sorted(range(n), key=lambda i: (-probs[i], i))\n"
    "    if top_k is not None:\n"
    "        probs = cut(probs, set(ranked(probs)[:top_k]))\n"
    "    if top_p is not None:\n"
    "        keep, mass = set(), 0.0\n"
    "        for i in ranked(probs):\n"
    "            if mass >= top_p:\n"
    "                break\n"
    "            keep.add(i)\n"
    "            mass += probs[i]\n"
    "        probs = cut(probs, keep)\n"
    "    return np.array(probs)\n")


def sampler_exercise():
    """The lesson's next_token_probs exercise."""
    return next(found for found in LESSON.exercises if found.id == "next_token_probs")


def test_the_sampler_reference_and_a_different_correct_rewrite_pass():
    assert grade(sampler_exercise().solution, SAMPLER_CHECKER)["passed"]
    result = grade(SAMPLER_REWRITE, SAMPLER_CHECKER)
    assert result["passed"], result["results"][-1]


def test_every_known_wrong_sampler_fails_with_a_sentence_naming_its_own_slip():
    wrong = sampler_exercise().wrong
    assert len(wrong) >= 6
    sentences = {}
    for name, code in sorted(wrong.items()):
        result = grade(code, SAMPLER_CHECKER)
        assert not result["passed"], name
        message = result["results"][-1]["message"]
        assert message.endswith(".") and not re.search(r"[.;] [A-Z]", message), message  # one sentence
        sentences[name] = message.split(";", 1)[-1]
    assert len(set(sentences.values())) == len(sentences), sentences
    named = {  # each slip's sentence says what was done
        "temperature_after_softmax.py": "after the softmax",
        "top_k_keeps_one_more.py": "one more than top_k",
        "top_k_keeps_one_fewer.py": "one fewer than top_k",
        "top_p_drops_the_crossing_token.py": "dropped the token that carries",
        "no_renormalization.py": "did not renormalize",
        "greedy_at_temperature_one.py": "at temperature 1 you put all the mass",
        "renormalizes_only_at_the_end.py": "before renormalizing",
        "ties_to_the_higher_id.py": "kept the higher id",
        "divides_by_zero_temperature.py": "division by zero",
    }
    for name, words in named.items():
        assert words in sentences[name], (name, sentences[name])


def test_the_checkers_reference_is_the_packages_sampler_and_no_case_sits_on_a_rounding_edge():
    from a_model_that_writes.checkers import next_token_probs as checker
    from a_model_that_writes.sampling import next_token_probs
    settings = [(temperature, top_k, top_p) for temperature in (0, 0.5, 1.0, 1.7) for top_k in (None, 1, 4, 30)
                for top_p in (None, 0.3, 0.9)]
    rng = np.random.default_rng(0)
    for case in checker.CASES:
        logits = checker.case_input(*case[:3])
        temperature, top_k, top_p = case[3:]
        assert np.array_equal(checker.reference(logits, temperature, top_k, top_p),
                              next_token_probs(logits, temperature, top_k, top_p))
        if top_p is not None and temperature != 0:
            before = checker.reference(logits, temperature, top_k, None)
            running = np.cumsum(np.sort(before)[::-1])
            assert np.abs(running - top_p).min() > 1e-6, case
    for _ in range(20):
        logits = rng.normal(size=int(rng.integers(2, 30))) * 3
        for temperature, top_k, top_p in settings:
            assert np.array_equal(checker.reference(logits, temperature, top_k, top_p),
                                  next_token_probs(logits, temperature, top_k, top_p))


def test_the_sampler_follows_its_order_of_operations_and_leaves_its_input_alone():
    from a_model_that_writes.sampling import kept_tokens, next_token_probs, sample_next
    logits = np.array([1.0, 3.0, 0.0, 3.0, 2.0, -1.0])
    copy = logits.copy()
    assert np.array_equal(next_token_probs(logits, 0, None, None), [0, 1, 0, 0, 0, 0])  # ties: the lower id
    p = next_token_probs(logits, 0.5, None, None)
    assert p.dtype == np.float64 and p.shape == logits.shape and abs(p.sum() - 1) < 1e-12
    assert np.allclose(p, np.exp(logits / 0.5) / np.exp(logits / 0.5).sum())
    assert kept_tokens(next_token_probs(logits, 1.0, 3, None)) == [1, 3, 4]
    assert kept_tokens(next_token_probs(logits, 1.0, 2, None)) == [1, 3]
    assert kept_tokens(next_token_probs(logits, 1.0, 1, None)) == [1]
    assert kept_tokens(next_token_probs(logits, 1.0, None, 0.3)) == [1]  # id 1 alone holds 0.39: it crosses 0.3
    assert kept_tokens(next_token_probs(logits, 1.0, None, 0.5)) == [1, 3]  # 1 and 3, the lower id first, hold 0.78
    # top-p reads the distribution top-k renormalized: ids 1 and 3 hold 0.78 of the softmax, short of 0.8, but
    # 0.84 once top-k 3 has renormalized, so they reach 0.8 without id 4
    softmax, after_k = next_token_probs(logits, 1.0, None, None), next_token_probs(logits, 1.0, 3, None)
    assert softmax[1] + softmax[3] < 0.8 < after_k[1] + after_k[3]
    assert kept_tokens(next_token_probs(logits, 1.0, None, 0.8)) == [1, 3, 4]
    assert kept_tokens(next_token_probs(logits, 1.0, 3, 0.8)) == [1, 3]
    assert np.array_equal(logits, copy)
    draws = [sample_next(logits, np.random.default_rng(3), 1.0, 2, None) for _ in range(3)]
    assert len(set(draws)) == 1 and draws[0] in (1, 3)
    rng = np.random.default_rng(4)
    assert {sample_next(logits, rng, 1.0, 2, None) for _ in range(50)} == {1, 3}


def test_cooling_the_model_or_top_k_1_makes_it_greedy_as_the_quiz_says():
    from a_model_that_writes.sampling import next_token_probs
    assert quiz("greedy").correct == [0]  # "Both put (nearly) all the probability on the most probable character"
    cells = run_cells("vocabulary", "bigram", "checkpoint", "samples", "knobs", "cold")
    last_logits, model = cells["last_logits"], cells["model"]
    tops = [next_token_probs(last_logits, t, None, None).max() for t in (1.0, 0.3, 0.1, 0.01)]
    assert tops == sorted(tops) and tops[-1] > 0.99
    assert next_token_probs(last_logits, 2.0, 1, None).max() == 1.0
    greedy = [tuple(generate(model, [0], 20, np.random.default_rng(seed), probabilities=cells["greedy"], stop=0))
              for seed in (1, 2, 3, 4)]
    assert len(set(greedy)) == 1


def test_the_two_temperatures_cell_draws_with_the_learners_function_only_once_it_passes(capsys):
    cell = next(found for found in LESSON.cells if found.key == "sample-two-temperatures")
    base = run_cells("vocabulary", "bigram", "checkpoint", "samples", "knobs")
    outputs = {}
    for name, code in (("none", None), ("passing", SAMPLER_REWRITE),
                       ("wrong", sampler_exercise().wrong["top_k_keeps_one_more.py"]),
                       ("hot", sampler_exercise().wrong["temperature_after_softmax.py"])):
        namespace = dict(base)
        if code is not None:
            exec(compile(code, name, "exec"), namespace)
        capsys.readouterr()
        exec(compile(cell.code, cell.key, "exec"), namespace)
        outputs[name] = capsys.readouterr().out
        drawn_with = namespace["probabilities"]
        assert (drawn_with is namespace.get("next_token_probs")) == (name == "passing"), name
    assert "your next_token_probs" in outputs["passing"]
    assert all("has not passed" in outputs[name] for name in ("none", "wrong", "hot"))
    lines = outputs["none"].splitlines()
    assert lines[1].startswith("temperature 0.5") and lines[2].startswith("temperature 1.5")
    assert lines[1:] == outputs["passing"].splitlines()[1:]  # a passing function draws the same names


def test_the_prose_on_temperature_holds_for_the_numbers_its_cells_glue():
    cells = run_cells("vocabulary", "bigram", "checkpoint", "samples", "knobs", "knobs-numbers", "temperature-numbers")
    known, drawn = cells["known"], dict(cells["drawn_at"])
    drawn[1.0] = cells["written"]
    lengths = [np.mean([len(name) for name in drawn[t]]) for t in (0.5, 1.0, 1.5)]
    assert lengths == sorted(lengths)  # "the names grow longer with the temperature"
    real = [sum(name in known for name in drawn[t]) for t in (0.5, 1.0, 1.5)]
    assert real[0] > real[1] and real[0] > real[2]  # "cooled, it writes names of the corpus more often"
    assert len(set(drawn[0.5])) < len(drawn[0.5])  # "but it also repeats itself"
    shaped, logits = cells["shaped"], cells["last_logits"]
    first = int(np.argmax(logits))  # "at temperature 0.5 it gets ..., at temperature 2 only ..."
    assert shaped["temperature 2"][first] < shaped["softmax as it is"][first] < shaped["temperature 0.5"][first]
    kept = cells["top_p_kept"]  # "without the last of them the mass is ..., short of 0.9; with it, ..."
    assert shaped["softmax as it is"][kept[:-1]].sum() < 0.9 <= shaped["softmax as it is"][kept].sum()
    assert cells["top_k_kept"] == kept[:3]
