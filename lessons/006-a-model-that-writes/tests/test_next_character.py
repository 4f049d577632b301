"""Lesson 006's explorable of the next character: every state read back and checked against the lesson's
sampling.next_token_probs on the shipped checkpoint's logits, its caption's claims, and its place on the page
(below the quiz on greedy decoding and the cell that answers it, since its top-k 1 shows that answer)."""

import numpy as np
import pytest
from a_model_that_writes import sampling
from a_model_that_writes.checkpoint import load_shipped
from a_model_that_writes.explorables import next_character
from a_model_that_writes.text import Vocabulary, names

import support
from course.explorables import engine
from course.nn.gpt import generate
from support import ROOT

MODULE = "a_model_that_writes.explorables.next_character"
LESSON = ROOT / "lessons" / "006-a-model-that-writes" / "lesson.md"


@pytest.fixture(scope="module")
def figure():
    return support.in_language("en", engine.load, MODULE)


@pytest.fixture(scope="module")
def states(figure):
    """(values passed to state(), the state) for every combination the build precomputes."""
    return [(figure.values(key), support.in_language("en", figure.compute, key)) for key in figure.keys()]


@pytest.fixture(scope="module")
def model():
    return load_shipped(), Vocabulary(names())


def logits_after(model, prompt):
    """The checkpoint's logits (V,) for the character after the prompt, computed here, not by the module."""
    gpt, vocabulary = model
    return gpt.forward(np.array([vocabulary.encode(prompt)]))[0][0, -1].astype(np.float64)


def test_the_figure_offers_every_setting_and_stays_small(figure, states):
    assert figure.problems() == []
    offered = {control.name: [value for value, _ in control.options] for control in figure.discrete}
    assert offered == {"prompt": list(next_character.PROMPTS), "temperature": list(next_character.TEMPERATURES),
                       "top_k": list(next_character.TOP_K), "top_p": list(next_character.TOP_P)}
    assert 0 not in offered["temperature"]  # greedy is the quiz's answer: the figure shows it only through top-k 1
    assert len(states) == np.prod([len(values) for values in offered.values()]) <= 100


def test_every_states_bars_are_the_kept_characters_with_the_samplers_probabilities(states, model):
    _, vocabulary = model
    for values, state in states:
        logits = logits_after(model, values["prompt"])
        p = sampling.next_token_probs(logits, values["temperature"], values["top_k"], values["top_p"])
        softmax = sampling.next_token_probs(logits, values["temperature"], None, None)
        kept = [int(i) for i in np.argsort(-p, kind="stable") if p[i] > 0]
        bars = state["probabilities"]["vectors"]
        assert len(bars) == min(len(kept), next_character.SHOWN), values
        for (label, (before, after), _), i in zip(bars, kept):
            assert label == (". (end)" if i == 0 else vocabulary.chars[i]), values
            assert before == pytest.approx(softmax[i], abs=1e-12) and after == pytest.approx(p[i], abs=1e-12), values
        if len(kept) <= next_character.SHOWN:  # every kept character drawn: the bars sum to 1
            assert sum(after for _, (_, after), _ in bars) == pytest.approx(1.0), values
        panel = {template: line for template, line in state["summary"][1:]}
        kept_line = panel[next_character.TEXT["en"]["kept_line"]]
        assert kept_line["n"].number == len(kept) and kept_line["mass"].number == pytest.approx(softmax[kept].sum())
        assert panel[next_character.TEXT["en"]["first"]]["p"].number == pytest.approx(p.max())
        hidden = panel.get(next_character.TEXT["en"]["hidden"])
        assert (hidden is None) == (len(kept) <= next_character.SHOWN), values
        if hidden:
            assert hidden["mass"].number == pytest.approx(p[kept[next_character.SHOWN:]].sum())


def test_every_states_names_are_written_by_generate_with_the_same_settings_and_seed(states, model):
    gpt, vocabulary = model
    for values, state in states:
        rng = np.random.default_rng(next_character.SEED)
        expected = [vocabulary.decode(generate(
            gpt, vocabulary.encode(values["prompt"]), next_character.LONGEST, rng, stop=0,
            probabilities=lambda logits, values=values: sampling.next_token_probs(
                logits, values["temperature"], values["top_k"], values["top_p"]))[1:]).rstrip(".")
            for _ in range(next_character.WRITTEN)]
        assert state["written"][1] == ", ".join(expected), values
        assert all(name.startswith(values["prompt"][1:]) for name in expected)


def test_the_captions_claims_hold_in_every_state(states):
    """Top-k 1 writes one name over and over; at each temperature and top-p, '.chr' keeps fewer than '.'."""
    for values, state in states:
        written = state["written"][1].split(", ")
        if values["top_k"] == 1:
            assert len(set(written)) == 1, values
    kept = {tuple(sorted(values.items(), key=lambda item: item[0])): state["summary"][1][1]["n"].number
            for values, state in states}
    for values, _ in states:
        if values["prompt"] == ".chr" and values["top_p"] is not None and values["top_k"] is None:
            at_start = dict(values, prompt=".")
            assert kept[tuple(sorted(values.items()))] < kept[tuple(sorted(at_start.items()))], values
    assert any(len(set(state["written"][1].split(", "))) > 1 for _, state in states)  # the claim can fail


def test_the_figure_comes_after_the_greedy_quiz_and_the_cell_that_answers_it():
    page = LESSON.read_text(encoding="utf-8")
    figure = page.index("```{explorable} next-character")
    assert page.index(":id: greedy") < page.index(":id: cold") < figure
    assert figure < page.index("::::{exercise} next_token_probs")
    assert page.count("{explorable}") == 1
