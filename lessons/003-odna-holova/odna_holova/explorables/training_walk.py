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
from ..language import phrases

TEXT = {  # everything the figure writes, per edition of the lesson
    "uk": {
        "labels": ("вода", "фінанси"),
        "stages": ("речення", "пошук у таблиці", "Q / K / V", "суміш уваги", "передбачення", "втрата", "градієнти",
                   "оновлення"),
        "groups": {"E": "таблиця E", "Wq": "Wq", "Wk": "Wk", "Wv": "Wv", "W": "класифікатор W", "b": "зсув b"},
        "quoted": "«{}»", "yes": "так",
        "sentence": ("Речення: {s}. Мета: {t} (клас {c}).",
                     "Класифікатор читатиме лише суміш у позиції bank; мету бачить втрата, а не увага.",
                     "Таблиці параметрів починаються з повторюваних випадкових чисел (seed 0), зсув класифікатора — з нуля."),
        "positions": ("Позиції речення", ["Позиція", "Токен", "Рядок таблиці E"]),
        "lookup": ("X складається з рядків E для {s}: X = {x}",
                   "Пошук не бачить контексту: той самий токен завжди дає той самий рядок."),
        "in_sentence": ("так, позиція {}", "ні"),
        "table": ("Таблиця E (навчений параметр, рядок на слово словника)", ["Слово", "Рядок E", "У реченні?"]),
        "qkv": ("Wq = {q}, Wk = {k}, Wv = {v} (параметри, спільні для всіх позицій)",
                "Q = X Wq, K = X Wk, V = X Wv — обчислені активації, не параметри."),
        "views": ("Погляди кожної позиції", ["Токен", "x", "запит q", "ключ k", "значення v"]),
        "mixture": ("Оцінки bank: q_bank · k_j / √2 (√2 = {r}); ваги — їхній softmax.",
                    "Суміш bank: h = Σ вага × значення = {h}"),
        "bank_row": ("Рядок bank", ["Токен", "q_bank · k", "оцінка / √2", "вага bank", "значення v"]),
        "verdicts": ("неправильно", "правильно"),
        "prediction": ("Логіти = h W + b = {l}; ймовірності (softmax) = {p}", "Передбачення: {p} ({v}; мета — {t})."),
        "classifier": ("Класифікатор (параметри)", ["", "W: до «вода»", "W: до «фінанси»"]),
        "classifier_rows": ("рядок {}", "зсув b"),
        "loss": ("Втрата = −ln p({t}) = −ln {p} = {l}", "Що менша ймовірність правильного класу, то більша втрата."),
        "probabilities": ("Ймовірності класів", ["Клас", "ймовірність", "мета?"]),
        "absent": "слова немає в реченні: градієнт 0",
        "gradients": ("Зворотне поширення дає градієнт кожній групі параметрів; параметри ще не змінилися.",
                      "Рядок E[{w}] має нульовий градієнт: слова {w} немає в реченні, тож втрата від нього не залежить."),
        "gradient_table": ("Градієнти втрати за кожною групою", ["Група", "Градієнт", "Примітка"]),
        "update": ("Крок SGD: параметр ← параметр − {lr} × градієнт, для всіх груп одночасно.",
                   "Втрата на тому самому реченні: {b} до кроку, {a} після.",
                   "«Далі» в рядку оновлень продовжить з цих параметрів на іншому реченні."),
        "parameter_table": ("Параметри після кроку", ["Група", "Нове значення", "Примітка"]),
        "status": ("Етап {}: {}", "Виконано оновлень: {n}. Це оновлення тренує на {s}."),
        "losses": ("Втрата на обох реченнях перед кожним оновленням", "оновлень виконано", "втрата", "обидва правильно"),
        "step": "оновлень виконано: {}",
        "controls": ("Етап одного оновлення", "Оновлення параметрів (крок SGD на наступному реченні)", "+10 оновлень",
                     "Або номер оновлення понад {} (рахує Python)"),
    },
    "en": {
        "labels": ("water", "finance"),
        "stages": ("sentence", "table lookup", "Q / K / V", "attention mixture", "prediction", "loss", "gradients",
                   "update"),
        "groups": {"E": "table E", "Wq": "Wq", "Wk": "Wk", "Wv": "Wv", "W": "classifier W", "b": "bias b"},
        "quoted": "“{}”", "yes": "yes",
        "sentence": ("Sentence: {s}. Target: {t} (class {c}).",
                     "The classifier will read only the mixture at the position of bank; the loss sees the target, "
                     "attention does not.",
                     "The parameter tables start from repeatable random numbers (seed 0), the classifier’s bias from "
                     "zero."),
        "positions": ("The sentence’s positions", ["Position", "Token", "Row of table E"]),
        "lookup": ("X is made of the rows of E for {s}: X = {x}",
                   "The lookup does not see the context: the same token always gives the same row."),
        "in_sentence": ("yes, position {}", "no"),
        "table": ("Table E (a trained parameter, one row per word of the vocabulary)", ["Word", "Row of E", "In the sentence?"]),
        "qkv": ("Wq = {q}, Wk = {k}, Wv = {v} (parameters shared by every position)",
                "Q = X Wq, K = X Wk, V = X Wv are computed activations, not parameters."),
        "views": ("Each position’s three views", ["Token", "x", "query q", "key k", "value v"]),
        "mixture": ("The scores of bank: q_bank · k_j / √2 (√2 = {r}); the weights are their softmax.",
                    "The mixture of bank: h = Σ weight × value = {h}"),
        "bank_row": ("The row of bank", ["Token", "q_bank · k", "score / √2", "bank’s weight", "value v"]),
        "verdicts": ("wrong", "right"),
        "prediction": ("Logits = h W + b = {l}; probabilities (softmax) = {p}", "Prediction: {p} ({v}; the target is {t})."),
        "classifier": ("The classifier (parameters)", ["", "W: to “water”", "W: to “finance”"]),
        "classifier_rows": ("row {}", "bias b"),
        "loss": ("Loss = −ln p({t}) = −ln {p} = {l}", "The lower the probability of the right class, the higher the loss."),
        "probabilities": ("The classes’ probabilities", ["Class", "probability", "target?"]),
        "absent": "the word is not in the sentence: gradient 0",
        "gradients": ("Backpropagation gives every group of parameters its gradient; the parameters have not changed yet.",
                      "The row E[{w}] has a zero gradient: the word {w} is not in the sentence, so the loss does not "
                      "depend on it."),
        "gradient_table": ("Gradients of the loss for each group", ["Group", "Gradient", "Note"]),
        "update": ("SGD step: parameter ← parameter − {lr} × gradient, for every group at once.",
                   "Loss on the same sentence: {b} before the step, {a} after it.",
                   "“Next” in the row of updates goes on from these parameters, on the other sentence."),
        "parameter_table": ("Parameters after the step", ["Group", "New value", "Note"]),
        "status": ("Stage {}: {}", "Updates done: {n}. This update trains on {s}."),
        "losses": ("Loss on both sentences before each update", "updates done", "loss", "both right"),
        "step": "updates done: {}",
        "controls": ("Stage of one update", "Parameter updates (an SGD step on the next sentence)", "+10 updates",
                     "Or an update number past {} (computed by Python)"),
    },
    "es": {
        "labels": ("agua", "finanzas"),
        "stages": ("frase", "consulta a la tabla", "Q / K / V", "mezcla de atención", "predicción", "pérdida",
                   "gradientes", "actualización"),
        "groups": {"E": "tabla E", "Wq": "Wq", "Wk": "Wk", "Wv": "Wv", "W": "W del clasificador", "b": "sesgo b"},
        "quoted": "«{}»", "yes": "sí",
        "sentence": ("Frase: {s}. Objetivo: {t} (clase {c}).",
                     "El clasificador sólo leerá la mezcla en la posición de bank; la pérdida ve el objetivo, la "
                     "atención no.",
                     "Las tablas de parámetros empiezan con números aleatorios reproducibles (semilla 0), el sesgo del "
                     "clasificador en cero."),
        "positions": ("Las posiciones de la frase", ["Posición", "Token", "Fila de la tabla E"]),
        "lookup": ("X está hecha de las filas de E para {s}: X = {x}",
                   "La consulta a la tabla no ve el contexto: el mismo token da siempre la misma fila."),
        "in_sentence": ("sí, posición {}", "no"),
        "table": ("Tabla E (un parámetro entrenado, una fila por palabra del vocabulario)",
                  ["Palabra", "Fila de E", "¿En la frase?"]),
        "qkv": ("Wq = {q}, Wk = {k}, Wv = {v} (parámetros compartidos por todas las posiciones)",
                "Q = X Wq, K = X Wk, V = X Wv son activaciones calculadas, no parámetros."),
        "views": ("Las tres vistas de cada posición", ["Token", "x", "consulta q", "clave k", "valor v"]),
        "mixture": ("Las puntuaciones de bank: q_bank · k_j / √2 (√2 = {r}); los pesos son su softmax.",
                    "La mezcla de bank: h = Σ peso × valor = {h}"),
        "bank_row": ("La fila de bank", ["Token", "q_bank · k", "puntuación / √2", "peso de bank", "valor v"]),
        "verdicts": ("incorrecta", "correcta"),
        "prediction": ("Logits = h W + b = {l}; probabilidades (softmax) = {p}",
                       "Predicción: {p} ({v}; el objetivo es {t})."),
        "classifier": ("El clasificador (parámetros)", ["", "W: hacia «agua»", "W: hacia «finanzas»"]),
        "classifier_rows": ("fila {}", "sesgo b"),
        "loss": ("Pérdida = −ln p({t}) = −ln {p} = {l}",
                 "Cuanto menor es la probabilidad de la clase correcta, mayor es la pérdida."),
        "probabilities": ("Las probabilidades de las clases", ["Clase", "probabilidad", "¿objetivo?"]),
        "absent": "la palabra no está en la frase: gradiente 0",
        "gradients": ("La retropropagación da a cada grupo de parámetros su gradiente; los parámetros aún no han "
                      "cambiado.",
                      "La fila E[{w}] tiene gradiente cero: la palabra {w} no está en la frase, así que la pérdida no "
                      "depende de ella."),
        "gradient_table": ("Gradientes de la pérdida para cada grupo", ["Grupo", "Gradiente", "Nota"]),
        "update": ("Paso de SGD: parámetro ← parámetro − {lr} × gradiente, en todos los grupos a la vez.",
                   "Pérdida en la misma frase: {b} antes del paso, {a} después.",
                   "«Siguiente» en la fila de actualizaciones sigue desde estos parámetros, con la otra frase."),
        "parameter_table": ("Parámetros después del paso", ["Grupo", "Valor nuevo", "Nota"]),
        "status": ("Etapa {}: {}", "Actualizaciones hechas: {n}. Esta actualización entrena con {s}."),
        "losses": ("Pérdida en las dos frases antes de cada actualización", "actualizaciones hechas", "pérdida",
                   "las dos bien"),
        "step": "actualizaciones hechas: {}",
        "controls": ("Etapa de una actualización", "Actualizaciones de parámetros (un paso de SGD con la siguiente frase)",
                     "+10 actualizaciones", "O un número de actualización mayor que {} (lo calcula Python)"),
    },
}
MOST_UPDATES = 400  # a typed update number is kept within 0 … MOST_UPDATES
UPDATES = 32  # precomputed update numbers: 0 … 31
FIRST = 0  # «the river bank» trains first


def sentence_text(words):
    """A sentence written as the lesson quotes it."""
    return phrases(TEXT)["quoted"].format(" ".join(words))


def _sentence(stage, found):
    """Stage 1: the sentence, its target, and what the classifier reads."""
    words = stage["words"]
    say = phrases(TEXT)
    opening, reads, start = say["sentence"]
    caption, columns = say["positions"]
    return ([(opening, {"s": sentence_text(words), "t": say["labels"][stage["target"]], "c": str(stage["target"])}),
             reads, start],
            {"caption": caption, "columns": list(columns),
             "rows": [[str(i), word, str(walkthrough.WORDS.index(word))] for i, word in enumerate(words)]})


def _lookup(stage, found):
    """Stage 2: the table E, which rows the sentence picks, and X."""
    words = found["stages"][0]["words"]
    say = phrases(TEXT)
    present, absent = say["in_sentence"]
    rows = [[word, stage["E"][i], present.format(words.index(word)) if word in words else absent]
            for i, word in enumerate(walkthrough.WORDS)]
    made, blind = say["lookup"]
    caption, columns = say["table"]
    return ([(made, {"s": sentence_text(words), "x": stage["X"]}), blind],
            {"caption": caption, "columns": list(columns), "rows": rows})


def _qkv(stage, found):
    """Stage 3: the three projections and every position's query, key and value."""
    words = found["stages"][0]["words"]
    X = found["stages"][1]["X"]
    shared, computed = phrases(TEXT)["qkv"]
    caption, columns = phrases(TEXT)["views"]
    return ([(shared, {"q": stage["Wq"], "k": stage["Wk"], "v": stage["Wv"]}), computed],
            {"caption": caption, "columns": list(columns),
             "rows": [[word, X[i], stage["Q"][i], stage["K"][i], stage["V"][i]] for i, word in enumerate(words)]})


def _mixture(stage, found):
    """Stage 4: bank's dot products, scores /√2, weights, and its mixture."""
    words = found["stages"][0]["words"]
    V = found["stages"][2]["V"]
    scores, mixture = phrases(TEXT)["mixture"]
    caption, columns = phrases(TEXT)["bank_row"]
    return ([(scores, {"r": Value(stage["scale"], ".3f")}), (mixture, {"h": stage["mixture"]})],
            {"caption": caption, "columns": list(columns),
             "rows": [[word, Value(stage["dots"][i], ".3f"), Value(stage["scores"][i], ".3f"),
                       Value(stage["weights"][i], ".1%"), V[i]] for i, word in enumerate(words)]})


def _prediction(stage, found):
    """Stage 5: the classifier reading bank's mixture."""
    target = found["stages"][0]["target"]
    say = phrases(TEXT)
    labels = say["labels"]
    verdict = say["verdicts"][int(stage["predicted"] == target)]
    logits, prediction = say["prediction"]
    caption, columns = say["classifier"]
    row, bias = say["classifier_rows"]
    return ([(logits, {"l": stage["logits"], "p": stage["probabilities"]}),
             (prediction, {"p": labels[stage["predicted"]], "v": verdict, "t": labels[target]})],
            {"caption": caption, "columns": list(columns),
             "rows": [[row.format(i + 1)] + values for i, values in enumerate(stage["W"])] + [[bias] + stage["b"]]})


def _loss(stage, found):
    """Stage 6: the cross-entropy of the target class."""
    target = found["stages"][0]["target"]
    say = phrases(TEXT)
    loss, lower = say["loss"]
    caption, columns = say["probabilities"]
    return ([(loss, {"t": say["labels"][target], "p": Value(stage["probability_of_target"], ".4f"),
                     "l": Value(stage["loss"], ".4f")}), lower],
            {"caption": caption, "columns": list(columns),
             "rows": [[say["labels"][c], Value(p, ".4f"), say["yes"] if c == target else ""]
                      for c, p in enumerate(found["stages"][4]["probabilities"])]})


def _group_rows(values, absent=()):
    """Table rows of every parameter group: E one row per word (absent words marked), the others whole."""
    say = phrases(TEXT)
    rows = []
    for i, word in enumerate(walkthrough.WORDS):
        note = say["absent"] if word in absent else ""
        rows.append(["E[{}]".format(word), values["E"][i], note])
    for short in ("Wq", "Wk", "Wv", "W", "b"):
        rows.append([say["groups"][short], values[short], ""])
    return rows


def _gradients(stage, found):
    """Stage 7: every group's gradient; the absent word's row of E is exactly zero."""
    absent = stage["absent"]
    every, zero = phrases(TEXT)["gradients"]
    caption, columns = phrases(TEXT)["gradient_table"]
    return ([every, (zero, {"w": ", ".join(absent)})],
            {"caption": caption, "columns": list(columns),
             "rows": _group_rows(stage["gradients"], absent)})


def _update(stage, found):
    """Stage 8: one SGD step on every group, and the loss on the same sentence after it."""
    step, same, onward = phrases(TEXT)["update"]
    caption, columns = phrases(TEXT)["parameter_table"]
    return ([(step, {"lr": Value(stage["learning_rate"], ".1f")}),
             (same, {"b": Value(found["stages"][5]["loss"], ".4f"), "a": Value(stage["loss_after"], ".4f")}),
             onward],
            {"caption": caption, "columns": list(columns),
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
    say = phrases(TEXT)
    title, done = say["status"]
    status = [("title", title.format(stage + 1, say["stages"][stage])),
              (done, {"n": Value(shown, ".0f"), "s": sentence_text(words)})]
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
    title, x_label, y_label, right = phrases(TEXT)["losses"]
    return {"title": title, "x": list(range(UPDATES)), "x_label": x_label, "y_label": y_label,
            "series": [(sentence_text(words), [losses[i] for losses, _ in found])
                       for i, (words, _) in enumerate(walkthrough.EXAMPLES)],
            "marks": [(settled(FIRST), right)]}


def glue():
    """The numbers the prose quotes: tw_lr, tw_precomputed, tw_loss_first, tw_loss_after, tw_settled_<river|money>."""
    start = walkthrough.state(0, FIRST)["stages"]
    return {"tw_lr": walkthrough.LEARNING_RATE, "tw_precomputed": UPDATES,
            "tw_loss_first": start[5]["loss"], "tw_loss_after": start[7]["loss_after"],
            "tw_settled_river": settled(0), "tw_settled_money": settled(1)}


def explorable():
    """The eight stages, the updates (next, +10, back to the start), a later update typed, the panels and the loss line."""
    say = phrases(TEXT)
    stage, update, leap, more = say["controls"]
    steps = [say["step"].format(n) for n in range(UPDATES)]
    return Explorable([
        Stepper("stage", stage, list(say["stages"])),
        Stepper("update", update, steps, leap=(10, leap)),
        Number("more", more.format(UPDATES - 1), 0,
               spec=".0f", follows="update", presets={n: n for n in range(UPDATES)}),
        Text("status", spec=".3f"),
        Text("stage", spec=".3f"),
        Table("numbers", spec=".3f"),
        Line("losses", spec=".2f"),
    ], state, glue)
