"""The shipped model's next-character distribution after a prompt, shaped by temperature, top-k and top-p.

Every state comes from the shipped checkpoint: the logits of the prompt's last position, passed through the
lesson's sampling.next_token_probs with the state's settings. The bars are the kept characters, most probable
first (at most SHOWN of them), each with its softmax probability at the state's temperature and the probability
it keeps once top-k and top-p have cut and renormalized; below them, a few names written from the prompt with the
same settings and a fixed seed. The figure sits after the quiz on greedy decoding and the cell that answers it,
since its top-k 1 shows that answer.
"""

from functools import lru_cache

import numpy as np

from course.explorables.engine import Bars, Choice, Explorable, Text, Value
from course.nn.gpt import generate
from course.numbers import current_language

from .. import sampling
from ..checkpoint import load_shipped
from ..text import Vocabulary, names

PROMPTS = (".chr", ".")
TEMPERATURES = (0.5, 1.0, 2.0)
TOP_K = (None, 1, 3, 5)
TOP_P = (None, 0.9, 0.5)
SHOWN = 12  # at most this many bars: the first letter of a name keeps up to 27 characters at temperature 2
SEED = 6
WRITTEN = 5  # names written per state
LONGEST = 20  # characters drawn at most per name
TEXT = {  # what the figure writes, per language of the page
    "en": {"prompt": "Prompt", "temperature": "Temperature", "top_k": "Top-k", "top_p": "Top-p", "all": "all",
           "start": "'.' (a name's start)", "end": ". (end)",
           "softmax": "softmax at T", "kept": "kept, renormalized",
           "bars": "The next character after '{prompt}': its probability at temperature {t}, and once top-k and "
                   "top-p have cut",
           "heading": "After '{prompt}': temperature {t}, top-k {k}, top-p {p}",
           "kept_line": "{n} of {v} characters kept; before the final renormalization they carried {mass} of the "
                        "softmax at this temperature.",
           "first": "The most probable, {char}, gets {p}.",
           "hidden": "The {n} kept characters not drawn as bars carry {mass} between them.",
           "written": "{n} names written from '{prompt}' with these settings (seed {seed}):"},
}


def text(name, **values):
    """The figure's phrase `name` in the page's language, with its plain values filled in."""
    return TEXT[current_language()][name].format(**values)


@lru_cache(maxsize=1)
def model_and_vocabulary():
    """The shipped GPT and the corpus's vocabulary."""
    return load_shipped(), Vocabulary(names())


@lru_cache(maxsize=None)
def last_logits(prompt):
    """The shipped model's logits (V,) for the character after `prompt`, float64."""
    model, vocabulary = model_and_vocabulary()
    return model.forward(np.array([vocabulary.encode(prompt)]))[0][0, -1].astype(np.float64)


def shaped(prompt, temperature, top_k, top_p):
    """(softmax at the temperature, the distribution to draw from), both (V,), from the lesson's sampler."""
    logits = last_logits(prompt)
    return (sampling.next_token_probs(logits, temperature, None, None),
            sampling.next_token_probs(logits, temperature, top_k, top_p))


def written(prompt, temperature, top_k, top_p):
    """WRITTEN names drawn from the prompt with these settings, from one generator seeded with SEED."""
    model, vocabulary = model_and_vocabulary()
    rng = np.random.default_rng(SEED)
    draw = lambda logits: sampling.next_token_probs(logits, temperature, top_k, top_p)  # noqa: E731
    return [vocabulary.decode(generate(model, vocabulary.encode(prompt), LONGEST, rng, probabilities=draw,
                                       stop=0)[1:]).rstrip(".") for _ in range(WRITTEN)]


def label(vocabulary, i):
    """A character as a bar's label: the end token says what it is."""
    return text("end") if i == 0 else vocabulary.chars[i]


def state(prompt, temperature, top_k, top_p):
    """The bars of the kept characters and a panel: what is kept, the first choice, and names written."""
    _, vocabulary = model_and_vocabulary()
    softmax, p = shaped(prompt, temperature, top_k, top_p)
    kept = sampling.kept_tokens(p)
    shown = kept[:SHOWN]
    words = TEXT[current_language()]
    setting = {"prompt": prompt, "t": "{:g}".format(temperature), "k": words["all"] if top_k is None else top_k,
               "p": words["all"] if top_p is None else top_p}
    panel = [("title", text("heading", **setting)),
             (words["kept_line"], {"n": Value(len(kept), ".0f"), "v": Value(len(vocabulary), ".0f"),
                                   "mass": Value(softmax[kept].sum(), ".1%")}),
             (words["first"], {"char": label(vocabulary, kept[0]), "p": Value(p[kept[0]], ".3f")})]
    if len(kept) > len(shown):
        panel.append((words["hidden"], {"n": Value(len(kept) - len(shown), ".0f"),
                                        "mass": Value(p[kept[len(shown):]].sum(), ".3f")}))
    names_written = written(prompt, temperature, top_k, top_p)
    return {
        "probabilities": {"axes": [text("softmax"), text("kept")],
                          "vectors": [(label(vocabulary, i), [float(softmax[i]), float(p[i])], "query")
                                      for i in shown],
                          "title": text("bars", prompt=prompt, t=setting["t"])},
        "summary": panel,
        "written": [text("written", n=WRITTEN, prompt=prompt, seed=SEED), ", ".join(names_written)],
    }


def explorable():
    """Prompt, temperature, top-k and top-p; the bars of what is kept, the panel and the names written."""
    words = TEXT[current_language()]
    return Explorable([
        Choice("prompt", text("prompt"), [(prompt, words["start"] if prompt == "." else prompt)
                                          for prompt in PROMPTS], value=".chr"),
        Choice("temperature", text("temperature"), [(t, "{:g}".format(t)) for t in TEMPERATURES], value=1.0),
        Choice("top_k", text("top_k"), [(k, words["all"] if k is None else str(k)) for k in TOP_K]),
        Choice("top_p", text("top_p"), [(p, words["all"] if p is None else str(p)) for p in TOP_P]),
        Bars("probabilities", spec=".3f"),
        Text("summary"),
        Text("written"),
    ], state)
