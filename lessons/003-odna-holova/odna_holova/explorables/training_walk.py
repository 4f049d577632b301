"""«Простежте одне речення крізь навчання»: the 2-D one-head classifier, stage by stage, one SGD step at a time.

Every number comes from odna_holova.walkthrough (SenseClassifier of width 2, seed 0,
SGD at lr 0.3, updates alternating the two sentences, «the river bank» first). Controls, each
row with its visible label: the eight stages of one update (sentence, lookup, Q/K/V, mixture,
prediction, loss, gradients, update), and the number of completed updates: «далі» is one more
update (on the other sentence), «+10 оновлень» ten more, reset returns to the seeded start.
The first UPDATES updates are drawn by the build (8 stages × UPDATES = 256 states, the most a
page holds); a later update number typed into the box is computed by the page's Python worker
from the same module. A line shows both sentences' losses over those updates, with the update
from which both stay classified right marked.
"""

from course.explorables.engine import Explorable, Line, Number, Stepper, Table, Text, Value

from .. import walkthrough

LABELS = ("вода", "фінанси")
STAGE_TITLES = ("речення", "пошук у таблиці", "Q / K / V", "суміш уваги", "передбачення", "втрата", "градієнти",
                "оновлення")
GROUP_NAMES = {"E": "таблиця E", "Wq": "Wq", "Wk": "Wk", "Wv": "Wv", "W": "класифікатор W", "b": "зсув b"}
MOST_UPDATES = 400  # a typed update number is kept within 0 … MOST_UPDATES
UPDATES = 32  # precomputed update numbers: 0 … 31
FIRST = 0  # «the river bank» trains first


def sentence_text(words):
    """A sentence written as the lesson quotes it."""
    return "«{}»".format(" ".join(words))


def _sentence(stage, found):
    """Stage 1: the sentence, its target, and what the classifier reads."""
    words = stage["words"]
    return ([("Речення: {s}. Мета: {t} (клас {c}).", {"s": sentence_text(words), "t": LABELS[stage["target"]],
                                                      "c": str(stage["target"])}),
             "Класифікатор читатиме лише суміш у позиції bank; мету бачить втрата, а не увага.",
             "Таблиці параметрів починаються з повторюваних випадкових чисел (seed 0), зсув класифікатора — з нуля."],
            {"caption": "Позиції речення", "columns": ["Позиція", "Токен", "Рядок таблиці E"],
             "rows": [[str(i), word, str(walkthrough.WORDS.index(word))] for i, word in enumerate(words)]})


def _lookup(stage, found):
    """Stage 2: the table E, which rows the sentence picks, and X."""
    words = found["stages"][0]["words"]
    rows = [[word, stage["E"][i], "так, позиція {}".format(words.index(word)) if word in words else "ні"]
            for i, word in enumerate(walkthrough.WORDS)]
    return ([("X складається з рядків E для {s}: X = {x}", {"s": sentence_text(words), "x": stage["X"]}),
             "Пошук не бачить контексту: той самий токен завжди дає той самий рядок."],
            {"caption": "Таблиця E (навчений параметр, рядок на слово словника)",
             "columns": ["Слово", "Рядок E", "У реченні?"], "rows": rows})


def _qkv(stage, found):
    """Stage 3: the three projections and every position's query, key and value."""
    words = found["stages"][0]["words"]
    X = found["stages"][1]["X"]
    return ([("Wq = {q}, Wk = {k}, Wv = {v} (параметри, спільні для всіх позицій)",
              {"q": stage["Wq"], "k": stage["Wk"], "v": stage["Wv"]}),
             "Q = X Wq, K = X Wk, V = X Wv — обчислені активації, не параметри."],
            {"caption": "Погляди кожної позиції", "columns": ["Токен", "x", "запит q", "ключ k", "значення v"],
             "rows": [[word, X[i], stage["Q"][i], stage["K"][i], stage["V"][i]] for i, word in enumerate(words)]})


def _mixture(stage, found):
    """Stage 4: bank's dot products, scores /√2, weights, and its mixture."""
    words = found["stages"][0]["words"]
    V = found["stages"][2]["V"]
    return ([("Оцінки bank: q_bank · k_j / √2 (√2 = {r}); ваги — їхній softmax.", {"r": Value(stage["scale"], ".3f")}),
             ("Суміш bank: h = Σ вага × значення = {h}", {"h": stage["mixture"]})],
            {"caption": "Рядок bank", "columns": ["Токен", "q_bank · k", "оцінка / √2", "вага bank", "значення v"],
             "rows": [[word, Value(stage["dots"][i], ".3f"), Value(stage["scores"][i], ".3f"),
                       Value(stage["weights"][i], ".1%"), V[i]] for i, word in enumerate(words)]})


def _prediction(stage, found):
    """Stage 5: the classifier reading bank's mixture."""
    target = found["stages"][0]["target"]
    verdict = "правильно" if stage["predicted"] == target else "неправильно"
    return ([("Логіти = h W + b = {l}; ймовірності (softmax) = {p}", {"l": stage["logits"], "p": stage["probabilities"]}),
             ("Передбачення: {p} ({v}; мета — {t}).", {"p": LABELS[stage["predicted"]], "v": verdict,
                                                       "t": LABELS[target]})],
            {"caption": "Класифікатор (параметри)", "columns": ["", "W: до «вода»", "W: до «фінанси»"],
             "rows": [["рядок {}".format(i + 1)] + row for i, row in enumerate(stage["W"])] + [["зсув b"] + stage["b"]]})


def _loss(stage, found):
    """Stage 6: the cross-entropy of the target class."""
    target = found["stages"][0]["target"]
    return ([("Втрата = −ln p({t}) = −ln {p} = {l}", {"t": LABELS[target], "p": Value(stage["probability_of_target"], ".4f"),
                                                      "l": Value(stage["loss"], ".4f")}),
             "Що менша ймовірність правильного класу, то більша втрата."],
            {"caption": "Ймовірності класів", "columns": ["Клас", "ймовірність", "мета?"],
             "rows": [[LABELS[c], Value(p, ".4f"), "так" if c == target else ""]
                      for c, p in enumerate(found["stages"][4]["probabilities"])]})


def _group_rows(values, absent=()):
    """Table rows of every parameter group: E one row per word (absent words marked), the others whole."""
    rows = []
    for i, word in enumerate(walkthrough.WORDS):
        note = "слова немає в реченні: градієнт 0" if word in absent else ""
        rows.append(["E[{}]".format(word), values["E"][i], note])
    for short in ("Wq", "Wk", "Wv", "W", "b"):
        rows.append([GROUP_NAMES[short], values[short], ""])
    return rows


def _gradients(stage, found):
    """Stage 7: every group's gradient; the absent word's row of E is exactly zero."""
    absent = stage["absent"]
    return (["Зворотне поширення дає градієнт кожній групі параметрів; параметри ще не змінилися.",
             ("Рядок E[{w}] має нульовий градієнт: слова {w} немає в реченні, тож втрата від нього не залежить.",
              {"w": ", ".join(absent)})],
            {"caption": "Градієнти втрати за кожною групою", "columns": ["Група", "Градієнт", "Примітка"],
             "rows": _group_rows(stage["gradients"], absent)})


def _update(stage, found):
    """Stage 8: one SGD step on every group, and the loss on the same sentence after it."""
    return ([("Крок SGD: параметр ← параметр − {lr} × градієнт, для всіх груп одночасно.",
              {"lr": Value(stage["learning_rate"], ".1f")}),
             ("Втрата на тому самому реченні: {b} до кроку, {a} після.",
              {"b": Value(found["stages"][5]["loss"], ".4f"), "a": Value(stage["loss_after"], ".4f")}),
             "«Далі» в рядку оновлень продовжить з цих параметрів на іншому реченні."],
            {"caption": "Параметри після кроку", "columns": ["Група", "Нове значення", "Примітка"],
             "rows": _group_rows(stage["parameters"])})


STAGES = (_sentence, _lookup, _qkv, _mixture, _prediction, _loss, _gradients, _update)


def updates_shown(update, more):
    """The update number drawn: the typed one (kept within range), which equals the stepper's when precomputed."""
    return int(min(max(round(more), 0), MOST_UPDATES)) if more is not None else update


def state(stage, update, more):
    """What the figure draws: stage `stage` of update number `more` (the stepper's number unless one was typed)."""
    shown = updates_shown(update, more)
    found = walkthrough.state(shown, FIRST)
    words = found["stages"][0]["words"]
    lines, table = STAGES[stage](found["stages"][stage], found)
    status = [("title", "Етап {}: {}".format(stage + 1, STAGE_TITLES[stage])),
              ("Виконано оновлень: {n}. Це оновлення тренує на {s}.",
               {"n": Value(shown, ".0f"), "s": sentence_text(words)})]
    return {"status": status, "stage": lines, "numbers": table, "losses": loss_line()}


def both_losses(updates, first=FIRST):
    """Per update number 0 … updates-1: each sentence's loss, and whether both are classified right, before it."""
    net = walkthrough.model()
    found = []
    for update in range(updates):
        walkthrough.load(net, walkthrough.parameters_after(update, first))
        row = [walkthrough.loss_and_prediction(net, words, target) for words, target in walkthrough.EXAMPLES]
        found.append(([loss for loss, _ in row], all(right for _, right in row)))
    return found


def settled(first, updates=UPDATES):
    """The first update number from which both sentences stay classified right through `updates` updates."""
    wrong = [update for update, (_, right) in enumerate(both_losses(updates, first)) if not right]
    return wrong[-1] + 1 if wrong else 0


def loss_line():
    """Both sentences' losses before each precomputed update, with the update from which both are right marked."""
    found = both_losses(UPDATES)
    return {"title": "Втрата на обох реченнях перед кожним оновленням", "x": list(range(UPDATES)),
            "x_label": "оновлень виконано", "y_label": "втрата",
            "series": [(sentence_text(words), [losses[i] for losses, _ in found])
                       for i, (words, _) in enumerate(walkthrough.EXAMPLES)],
            "marks": [(settled(FIRST), "обидва правильно")]}


def glue():
    """The numbers the prose quotes: tw_lr, tw_precomputed, tw_loss_first, tw_loss_after, tw_settled_<river|money>."""
    start = walkthrough.state(0, FIRST)["stages"]
    return {"tw_lr": walkthrough.LEARNING_RATE, "tw_precomputed": UPDATES,
            "tw_loss_first": start[5]["loss"], "tw_loss_after": start[7]["loss_after"],
            "tw_settled_river": settled(0), "tw_settled_money": settled(1)}


def explorable():
    """The eight stages, the updates (next, +10, back to the start), a later update typed, the panels and the loss line."""
    steps = ["оновлень виконано: {}".format(n) for n in range(UPDATES)]
    return Explorable([
        Stepper("stage", "Етап одного оновлення", list(STAGE_TITLES)),
        Stepper("update", "Оновлення параметрів (крок SGD на наступному реченні)", steps, leap=(10, "+10 оновлень")),
        Number("more", "Або номер оновлення понад {} (рахує Python)".format(UPDATES - 1), 0,
               spec=".0f", follows="update", presets={n: n for n in range(UPDATES)}),
        Text("status", spec=".3f"),
        Text("stage", spec=".3f"),
        Table("numbers", spec=".3f"),
        Line("losses", spec=".2f"),
    ], state, glue)
