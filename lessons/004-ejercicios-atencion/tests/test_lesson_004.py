"""Lesson 004, the exercise sheet: its checker, its quiz keys recomputed, its mini-project, its links, in the page."""

import html
import re
import time

import numpy as np
import pytest
from playwright.sync_api import expect

from course.attention import attention, softmax
from course.exercise import grade
from course.nn.layers import TransformerBlock
from course.numbers import set_language
from coursebuild.lesson import read_lesson
from support import ROOT, assert_page_names_mistake_then_passes, submit_exercise

SLUG = "004-ejercicios-atencion"
FOLDER = ROOT / "lessons" / SLUG
EXERCISE = FOLDER / "exercises" / "atencion_causal"
CHECKER = "ejercicios_atencion.checkers.causal_mask_fix"
LESSON = read_lesson(FOLDER / "lesson.md")[0]
WRONG = sorted(path.name for path in (EXERCISE / "wrong").glob("*.py"))
EPOCHS = int(re.search(r"^epocas, anchura, anchura_mlp = (\d+),", next(
    cell.code for cell in LESSON.cells if cell.key == "mp-dos-bloques"), re.M).group(1))  # the mini-project's setting



@pytest.fixture(autouse=True)
def spanish_page():
    """The checkers write in the page's language, as the runner sets it: this lesson's page is Spanish."""
    set_language("es")
    yield
    set_language("en")

def first_attention_row():
    """Exercise 1's weights and output for the first word, from the course's attention."""
    Q = np.array([[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    K = np.array([[1.0, 1.0], [1.0, -1.0], [0.0, 0.0]])
    V = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    out, A = attention(Q, K, V)
    return A[0], out[0]


def attention_memory_gb(tokens, blocks=32, heads=32, bytes_per_weight=2):
    """Exercise 7: every attention table of every head of every block at once, in decimal gigabytes."""
    assert np.dtype(np.float16).itemsize == bytes_per_weight
    return blocks * heads * tokens ** 2 * np.dtype(np.float16).itemsize / 1e9


def vit_patches(side, patch=16):
    """Exercise 8 by another route than the lesson's reshape: cut an image with explicit slices."""
    image = np.random.default_rng(0).normal(size=(3, side, side))
    cut = [image[:, r:r + patch, c:c + patch].ravel() for r in range(0, side, patch) for c in range(0, side, patch)]
    return np.array(cut)  # (patches, 3·patch·patch)


COMPUTED = {  # a piece of each numeric question -> the value the library computes for it
    "a sí misma": lambda: first_attention_row()[0][0],
    "segunda palabra": lambda: first_attention_row()[0][1],
    "segunda coordenada": lambda: first_attention_row()[1][1],
    "puntuaciones por 0": lambda: softmax(np.array([2.0, 1.0, 0.5, -1.0]) * 0)[0],
    "parámetros tiene el bloque": lambda: TransformerBlock(128, 8, 512, np.random.default_rng(0)).count(),
    "Con 4096 tokens": lambda: attention_memory_gb(4096),
    "¿Y con 8192 tokens": lambda: attention_memory_gb(8192),
    "Cuántos parches": lambda: vit_patches(224).shape[0],
    "números tiene cada parche": lambda: vit_patches(224).shape[1],
    "[CLS]?": lambda: vit_patches(224).shape[0] + 1,
    "veces más grande": lambda: ((vit_patches(384).shape[0] + 1) / (vit_patches(224).shape[0] + 1)) ** 2,
}


def plain(body):
    """The source text of a block's parsed Markdown body, with inline math as its bare LaTeX ($4096$ -> 4096)."""
    return " ".join(token.content for token in body.tokens if token.type == "inline").replace("$", "")


def numeric_quizzes():
    """(quiz, computed value) for every numeric question of the lesson; each must match one computation."""
    found = []
    for quiz in LESSON.quizzes:
        if quiz.kind != "numeric" or quiz.key.startswith("mp-"):  # the mini-project's are read from its run
            continue
        matches = [key for key in COMPUTED if key in plain(quiz.question)]
        assert len(matches) == 1, "no single computation for {!r}".format(plain(quiz.question))
        found.append((quiz, float(COMPUTED[matches[0]]())))
    return found


def test_every_numeric_quiz_key_is_what_the_library_computes():
    quizzes = numeric_quizzes()
    assert len(quizzes) == 11  # the mini-project's own question is checked against its run below
    for quiz, computed in quizzes:
        assert abs(quiz.answer - computed) <= quiz.tolerance + 1e-9, (plain(quiz.question), quiz.answer, computed)


def test_the_head_count_does_not_change_the_parameter_count():
    rng = np.random.default_rng(1)
    assert {TransformerBlock(128, heads, 512, rng).count() for heads in (1, 2, 8)} == {198272}


def test_the_tasks_marked_as_needing_positions_are_exactly_those_that_do_not_commute_with_shuffling():
    tasks = {  # option text -> what the task writes for a batch of sequences
        "aparece el 7": lambda x: np.repeat((x == 7).any(axis=1, keepdims=True), x.shape[1], axis=1),
        "Invertir": lambda x: x[:, ::-1],
        "Ordenar": lambda x: np.sort(x, axis=1),
        "Copiar": lambda x: x,
    }
    rng = np.random.default_rng(2)
    x = rng.integers(0, 10, size=(200, 8))
    shuffle = rng.permutation(8)
    # Without positions a model's output can only be shuffled along with its input: f(x[:, P]) = f(x)[:, P].
    need = {name for name, task in tasks.items() if not np.array_equal(task(x[:, shuffle]), task(x)[:, shuffle])}
    quiz = next(quiz for quiz in LESSON.quizzes if quiz.kind == "multiple")
    marked = {name for index in quiz.correct for name in tasks if name in plain(quiz.options[index])}
    assert marked == need == {"Invertir", "Ordenar"}


def test_the_reference_and_a_different_correct_rewrite_pass():
    renormalized = (
        "import numpy as np\n"
        "def atencion_causal(Q, K, V):\n"
        "    S = Q @ K.T / np.sqrt(Q.shape[1])\n"
        "    E = np.exp(S - S.max(axis=1, keepdims=True)) * np.tri(len(Q))  # zero the future, then renormalize\n"
        "    pesos = E / E.sum(axis=1, keepdims=True)\n"
        "    return pesos @ V, pesos\n")
    looped = (
        "import math\nimport numpy as np\n"
        "def atencion_causal(Q, K, V):\n"
        "    pesos = np.zeros((len(Q), len(K)))\n"
        "    for i in range(len(Q)):\n"
        "        s = [float(Q[i] @ K[j]) / math.sqrt(Q.shape[1]) for j in range(i + 1)]\n"
        "        top = max(s)\n"
        "        e = [math.exp(v - top) for v in s]\n"
        "        pesos[i, :i + 1] = [v / sum(e) for v in e]\n"
        "    return pesos @ V, pesos\n")
    for code in ((EXERCISE / "solution.py").read_text(), renormalized, looped):
        result = grade(code, CHECKER)
        assert result["passed"], result["results"]
        assert len(result["results"]) == 6


def test_the_broken_function_as_given_is_the_starter_and_fails():
    result = grade((EXERCISE / "starter.py").read_text(), CHECKER)
    assert not result["passed"]
    assert "después del softmax" in result["results"][-1]["message"]


@pytest.mark.parametrize("name", WRONG)
def test_each_known_mistake_fails_with_one_spanish_sentence(name):
    result = grade((EXERCISE / "wrong" / name).read_text(), CHECKER)
    assert not result["passed"]
    message = result["results"][-1]["message"]
    assert message.startswith("Con ") and message.endswith(".") and "Traceback" not in message


def test_the_known_mistakes_are_at_least_eight_and_each_gets_its_own_message():
    messages = {grade((EXERCISE / "wrong" / name).read_text(), CHECKER)["results"][-1]["message"] for name in WRONG}
    assert len(WRONG) >= 8 and len(messages) == len(WRONG)


@pytest.mark.parametrize("name, words", [
    ("both_bugs_as_given.py", "además con k=0"),
    ("scale_by_v_width.py", "anchura de V"),
    ("mask_after_softmax.py", "después del softmax"),
    ("diagonal_masked.py", "fila 0 de los pesos es NaN"),
    ("zero_instead_of_inf.py", "exp(0) = 1"),
    ("past_masked.py", "su pasado"),
    ("no_mask.py", "su futuro"),
    ("no_max_shift.py", "resta el máximo"),
    ("softmax_over_columns.py", "axis=-1"),
])
def test_the_mask_mistakes_are_named_for_what_they_are(name, words):
    assert words in grade((EXERCISE / "wrong" / name).read_text(), CHECKER)["results"][-1]["message"]


def cell_number(key):
    """The number on the page of the cell whose id is `key`."""
    return next(cell.number for cell in LESSON.cells if cell.key == key)


def cell_section(page_html, key):
    """The HTML of the cell whose id is `key`."""
    return re.search(r'<section class="cell" id="cell-{}".*?</section>'.format(cell_number(key)), page_html,
                     re.S).group(0)


def cell_output(page_html, key):
    section = cell_section(page_html, key)
    return html.unescape(re.sub(r"<[^>]+>", "", "".join(re.findall(r'<pre class="out out-stdout"[^>]*>(.*?)</pre>',
                                                                    section, re.S))))


def table_rows(text):
    """The per-epoch rows of the Spanish training table: (epoch, loss, digits %, sequences %)."""
    rows = re.findall(r"^\s*(\d+)\s+(\d+,\d+)\s+(\d+,\d) %\s+(\d+,\d) %$", text, re.M)
    return [(int(e),) + tuple(float(value.replace(",", ".")) for value in values) for e, *values in rows]


def test_the_mini_project_sorts_at_least_99_percent_of_held_out_sequences_in_cpython(course_site):
    page_html = (course_site / SLUG / "index.html").read_text()
    two = table_rows(cell_output(page_html, "mp-dos-bloques"))
    one = table_rows(cell_output(page_html, "mp-un-bloque"))
    epochs = list(range(1, EPOCHS + 1))
    assert [row[0] for row in two] == epochs and [row[0] for row in one] == epochs
    assert two[-1][3] >= 99.0
    assert one[-1][3] < two[-1][3]  # the lesson says one block does not get as far in as many epochs
    assert "¿bien ordenada? True" in cell_output(page_html, "mp-mapas")


def test_with_six_epochs_one_block_nearly_gets_there_and_two_blocks_dip_once_and_recover(course_site):
    page_html = (course_site / SLUG / "index.html").read_text()
    one = table_rows(cell_output(page_html, "mp-un-bloque-6"))
    two = table_rows(cell_output(page_html, "mp-seis-epocas"))
    assert [row[0] for row in one] == [row[0] for row in two] == list(range(1, 7))
    assert one[-1][3] >= 99.0  # «casi lo consigue»
    dips = [e for e in range(1, 6) if two[e][3] < two[e - 1][3]]
    assert dips and two[dips[0] + 1][3] > two[dips[0]][3]  # it dips, then recovers
    for key in ("mp-un-bloque-6", "mp-seis-epocas"):
        assert cell_output(page_html, key).startswith("Seis épocas")  # the browser's time is said first


def test_the_long_runs_are_left_out_of_run_all_and_nothing_after_them_reads_them():
    long_runs = [cell for cell in LESSON.cells if cell.skip_run_all and "remove-cell" not in cell.tags]
    assert [cell.key for cell in long_runs] == ["mp-un-bloque-6", "mp-seis-epocas"]
    later = [cell.code for cell in LESSON.cells if cell.number > long_runs[0].number and not cell.skip_run_all]
    for name in ("largo_1", "historia_1_6", "largo_2", "historia_2_6", "secuencias_6", "caida"):
        assert not any(re.search(r"\b{}\b".format(name), code) for code in later), name


def measured_table(page_html):
    """The mini-project's per-map rows: (block, head, strongest, on the written digit, mirror, rows over half %)."""
    text = cell_output(page_html, "mp-medidas")
    number = r"(\d+,\d+)"
    rows = re.findall(r"^\s*(\d)\s+(\d)\s+{0}\s+{0}\s+{0}\s+(\d+) %$".format(number), text, re.M)
    return [(int(b), int(h)) + tuple(float(v.replace(",", ".")) for v in rest) for b, h, *rest in rows]


def quiz(key):
    """The lesson's quiz whose id is `key`."""
    return next(quiz for quiz in LESSON.quizzes if quiz.key == key)


def test_the_mini_project_questions_are_answered_by_its_own_measures(course_site):
    page_html = (course_site / SLUG / "index.html").read_text()
    rows = measured_table(page_html)
    assert [(b, h) for b, h, *_ in rows] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    on_digit = {b: [row[3] for row in rows if row[0] == b] for b in (1, 2)}
    searching = 2 if min(on_digit[2]) > max(on_digit[1]) else 1
    assert "bloque {}".format(searching) in plain(quiz("mp-busca").options[quiz("mp-busca").correct[0]])
    assert all(abs(row[4] - 1 / 8) < 0.05 for row in rows)  # the mirror gets what a uniform map gives
    assert "1/8" in plain(quiz("mp-espejo").options[quiz("mp-espejo").correct[0]])
    per_row = re.findall(r"^\s*(\d)\s+(\d)\s+(\d+,\d+)\s+(\d+,\d+)$", cell_output(page_html, "mp-medidas"), re.M)
    assert len(per_row) == 8
    assert quiz("mp-ciegas").answer == sum(float(head_1.replace(",", ".")) < 0.1 for _, _, head_1, _ in per_row)


def test_removing_block_1s_attention_from_the_trained_model_breaks_the_sorting(course_site):
    text = cell_output((course_site / SLUG / "index.html").read_text(), "sin-bloque-1")
    found = dict(re.findall(r"^(.*): por dígito [\d,]+ %, por secuencia ([\d,]+) %$", text, re.M))
    whole, without = (float(found[name].replace(",", ".")) for name in ("entero", "sin la atención del bloque 1"))
    assert whole >= 99.0 and without < 10.0


def test_the_grid_is_two_blocks_by_two_heads_labelled_with_digits(course_site):
    page_html = (course_site / SLUG / "index.html").read_text()
    section = cell_section(page_html, "mp-mapas")
    assert "figure-grid" in section and section.count('class="figure-row"') == 2
    labels = re.findall(r'aria-label="(Bloque \d, cabeza \d)"', section)
    assert labels == ["Bloque 1, cabeza 1", "Bloque 1, cabeza 2", "Bloque 2, cabeza 1", "Bloque 2, cabeza 2"]
    digits = re.search(r"entrada:\s+\[([\d ]+)\]", cell_output(page_html, "mp-mapas")).group(1).split()
    first_map = section.split("<svg")[1]
    assert re.findall(r'class="hm-col"[^>]*>(\d)</text>', first_map) == digits


def test_every_link_inside_the_page_points_at_something_on_it(course_site):
    page_html = (course_site / SLUG / "index.html").read_text()
    targets = set(re.findall(r'href="#([^"]+)"', page_html))
    ids = set(re.findall(r'id="([^"]+)"', page_html))
    assert len(targets) >= 10 and targets <= ids, targets - ids


def test_every_self_check_item_names_the_blocks_that_practise_it():
    (check,) = LESSON.self_checks
    assert len(check.items) == 7
    kinds = [sorted({ref.kind for ref in item.references}) for item in check.items]
    # Only the free reflection (exercise 2) has nothing to check; every other item names a quiz or an exercise.
    assert [bool(item.checked()) for item in check.items] == [True, False, True, True, True, True, True]
    assert kinds[1] == ["cell"] and kinds[3] == ["exercise"]
    assert {ref.name for item in check.items for ref in item.references if ref.kind == "quiz"} == {
        quiz.key for quiz in LESSON.quizzes}  # every question of the sheet counts towards some item
    assert {ref.name for item in check.items for ref in item.references if ref.kind == "exercise"} == {
        exercise.id for exercise in LESSON.exercises}  # and so does every exercise


# In Chromium: the quizzes grade, the exercise grades, the mini-project trains and draws.

PAGE = SLUG + "/index.html"


def spanish(value):
    """A number written the way a Spanish learner types it."""
    text = "{:.2f}".format(value).rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    return text.replace(".", ",")


def test_every_numeric_answer_is_accepted_and_a_wrong_one_rejected_in_the_page(page, course_server):
    page.goto(course_server.url(PAGE))
    for quiz, computed in numeric_quizzes():
        form = page.locator("#quiz-{}".format(quiz.number))
        field = form.locator("input[type=text]")
        for typed, verdict in ((spanish(computed), "Correcto."),
                               (spanish(quiz.answer + 2 * quiz.tolerance + 1), "No es correcto.")):
            field.fill(typed)
            form.locator("button[type=submit]").click()
            expect(form.locator(".quiz-verdict")).to_have_text(verdict)


def source_options(form, quiz):
    """The inputs of `quiz`'s options in source order (quiz.correct's order), found by option id: the page shows
    them in an order of its own."""
    return [form.locator('.quiz-inputs input[value="{}"]'.format(option)) for option in quiz.option_ids]


def test_the_choice_questions_grade_in_the_page(page, course_server):
    page.goto(course_server.url(PAGE))
    for quiz in LESSON.quizzes:
        if quiz.kind not in ("single", "multiple"):
            continue
        form = page.locator("#quiz-{}".format(quiz.number))
        options = source_options(form, quiz)
        wrong = [i for i in range(len(options)) if i not in quiz.correct][:1]
        for chosen, verdict in ((wrong + quiz.correct[1:], "No es correcto."), (quiz.correct, "Correcto.")):
            for i, option in enumerate(options):
                if i in chosen:
                    option.check()
                elif quiz.kind == "multiple":
                    option.uncheck()
            form.locator("button[type=submit]").click()
            expect(form.locator(".quiz-verdict")).to_have_text(re.compile("^" + re.escape(verdict)))  # a multiple one adds a count
            if verdict != "Correcto.":
                form.locator("[data-action=retry]").click()


def submit(page, code):
    """Check `code` as this lesson's exercise."""
    return submit_exercise(page, "atencion_causal", code)


def test_the_broken_function_fails_and_the_repair_passes_in_the_page(page, course_server):
    page.goto(course_server.url(PAGE))
    exercise = submit(page, (EXERCISE / "starter.py").read_text())
    expect(exercise.locator(".check-fail")).to_contain_text("la fila 0 suma 0")
    exercise = submit(page, (EXERCISE / "solution.py").read_text())
    expect(exercise.locator(".check-verdict")).to_have_text("Superado: todas las comprobaciones son correctas.")
    expect(exercise.locator(".check-ok")).to_have_count(6)


def run_cell(page, number, timeout=180_000):
    page.locator("#cell-{} [data-action=run]".format(number)).click()
    expect(page.locator("#cell-{}".format(number))).to_have_attribute("data-state", re.compile("done|failed"),
                                                                      timeout=timeout)
    return "".join(page.locator("#cell-{} .cell-output .out-stdout".format(number)).all_text_contents())


TRAIN, MAPS, ONE = (cell_number(key) for key in ("mp-dos-bloques", "mp-mapas", "mp-un-bloque"))


def test_the_mini_project_trains_to_99_percent_in_the_browser_and_draws_the_grid(page, course_server):
    page.goto(course_server.url(PAGE))
    run_cell(page, 1)
    start = time.monotonic()
    rows = table_rows(run_cell(page, TRAIN))
    seconds = time.monotonic() - start
    print("two blocks in Chromium: {:.1f} s, held-out sequences {:.1f} %".format(seconds, rows[-1][3]))
    assert page.locator("#cell-{}".format(TRAIN)).get_attribute("data-state") == "done"
    assert len(rows) == EPOCHS and rows[-1][3] >= 99.0
    expect(page.locator("#cell-{} progress".format(TRAIN))).to_have_attribute("value", re.compile(r"^\d+$"))
    expect(page.locator("#cell-{} .progress-text".format(TRAIN))).to_contain_text("Época {0}/{0}".format(EPOCHS))
    run_cell(page, MAPS)
    grid = page.locator("#cell-{} .figure-grid".format(MAPS))
    expect(grid.locator(".figure-row")).to_have_count(2)
    expect(grid.locator("svg.heatmap")).to_have_count(4)
    expect(grid.locator("svg.heatmap").last).to_have_attribute("aria-label", "Bloque 2, cabeza 2")
    expect(page.locator("#cell-{} svg.heatmap".format(MAPS)).last).to_have_attribute("aria-label",
                                                                                    "Invertir, hecho a mano")
    start = time.monotonic()
    one = table_rows(run_cell(page, ONE))
    print("one block in Chromium: {:.1f} s, held-out sequences {:.1f} %".format(time.monotonic() - start, one[-1][3]))
    assert len(one) == EPOCHS and one[-1][3] < rows[-1][3]


def test_stop_during_the_mini_project_keeps_the_model_and_says_where_it_stopped(page, course_server):
    page.goto(course_server.url(PAGE))
    run_cell(page, 1)
    page.locator("#cell-{} [data-action=run]".format(TRAIN)).click()
    progress = page.locator("#cell-{} .progress-text".format(TRAIN))
    expect(progress).to_contain_text("Época 1/{} · paso".format(EPOCHS), timeout=120_000)
    page.locator("[data-action=stop]").click()
    expect(page.locator("#cell-{}".format(TRAIN))).to_have_attribute("data-state", "stopped", timeout=30_000)
    expect(page.locator("#cell-{} .out-stdout".format(TRAIN))).to_contain_text("detenido durante la época 1")
    expect(progress).to_contain_text("detenido")
    run_cell(page, MAPS)  # the stopped model is still there and can be drawn
    expect(page.locator("#cell-{} .figure-grid svg.heatmap".format(MAPS))).to_have_count(4)


# The «¿Lo lograste?» list, ticked from the learner's saved work.

def quiz_form(page, key):
    """The form of the quiz whose id is `key`."""
    return page.locator("form.quiz", has=page.locator("#quiz-" + key))


def answer_quiz(page, key, right=True):
    """Answer the quiz `key` right (or wrong) as a learner would, and wait for the verdict."""
    quiz = next(quiz for quiz in LESSON.quizzes if quiz.key == key)
    form = quiz_form(page, key)
    if quiz.kind == "numeric":
        form.locator("input[type=text]").fill(spanish(quiz.answer if right else quiz.answer + 2 * quiz.tolerance + 1))
    else:
        options = source_options(form, quiz)
        chosen = quiz.correct if right else [i for i in range(len(options)) if i not in quiz.correct][:1]
        for i, option in enumerate(options):
            option.set_checked(i in chosen)
    form.locator("button[type=submit]").click()
    expect(form.locator(".quiz-verdict")).to_have_text("Correcto." if right else "No es correcto.")


def item(page, index):
    """The self-check list's item at `index` (0-based, in the order the lesson lists them)."""
    return page.locator(".self-check-item[data-item='{}']".format(index))


def expect_ticked(page, index, ticked):
    """The item shows a tick and says «Hecho» (or an empty ring and «Pendiente»), not by colour alone."""
    entry = item(page, index)
    expect(entry).to_have_attribute("data-state", "done" if ticked else "todo")
    expect(entry.locator(".self-check-mark")).to_have_text("✓" if ticked else "")
    expect(entry.locator(".self-check-state")).to_have_text("Hecho:" if ticked else "Pendiente:")


VIT = ["e8-parches", "e8-numeros", "e8-tokens", "e8-crece"]  # item 6 of the list (index 5)


def test_the_self_check_ticks_an_item_only_when_all_its_questions_are_right_and_keeps_it_on_reload(page, course_server):
    page.goto(course_server.url(PAGE))
    summary = page.locator(".self-check-summary")
    expect(summary).to_have_text("0 de 6 hechos")
    expect_ticked(page, 5, False)
    answer_quiz(page, VIT[0], right=False)
    expect_ticked(page, 5, False)
    expect(item(page, 5).locator(".self-check-progress")).to_have_text(" (0 de 5)")
    quiz_form(page, VIT[0]).locator("[data-action=retry]").click()
    for key in VIT:
        answer_quiz(page, key)
    expect_ticked(page, 5, False)  # four questions right, the exercise not yet passed: not done
    expect(item(page, 5).locator(".self-check-progress")).to_have_text(" (4 de 5)")
    submit_exercise(page, "parches", (FOLDER / "exercises" / "parches" / "solution.py").read_text())
    expect_ticked(page, 5, True)
    expect(summary).to_have_text("1 de 6 hechos")
    answer_quiz(page, "e6-posicion")  # one of item 5's three questions and one exercise
    expect(item(page, 4).locator(".self-check-progress")).to_have_text(" (1 de 4)")

    page.reload()
    expect_ticked(page, 5, True)
    expect(item(page, 4).locator(".self-check-progress")).to_have_text(" (1 de 4)")
    expect(summary).to_have_text("1 de 6 hechos")
    quiz_form(page, VIT[2]).locator("[data-action=retry]").click()  # a retry never unticks what was earned
    expect_ticked(page, 5, True)
    expect(summary).to_have_text("1 de 6 hechos")


def test_the_free_reflection_item_is_never_ticked_and_says_that_nothing_checks_it(page, course_server):
    page.goto(course_server.url(PAGE))
    reflection = item(page, 1)
    expect(reflection).to_have_attribute("data-state", "manual")
    expect(reflection.locator(".self-check-manual")).to_have_text("(sin comprobación automática: eso lo juzgas tú)")
    expect(reflection.locator(".self-check-mark")).to_be_hidden()
    expect(reflection.locator("a")).to_have_attribute("href", "#cell-e2-plataforma")
    reflection.locator("a").click()
    expect(page.locator("#cell-e2-plataforma")).to_be_in_viewport()


def test_passing_the_exercise_ticks_its_item_and_a_failed_check_does_not(page, course_server):
    page.goto(course_server.url(PAGE))
    submit(page, (EXERCISE / "starter.py").read_text())
    expect_ticked(page, 3, False)
    submit(page, (EXERCISE / "solution.py").read_text())
    expect_ticked(page, 3, True)
    page.reload()
    expect_ticked(page, 3, True)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_ticked_self_check_has_no_serious_axe_violations(browser, course_server, scheme):
    context = browser.new_context(bypass_csp=True, color_scheme=scheme)  # axe is injected as a script
    page = context.new_page()
    page.goto(course_server.url(PAGE))
    for key in VIT:
        answer_quiz(page, key)
    submit_exercise(page, "parches", (FOLDER / "exercises" / "parches" / "solution.py").read_text())
    expect_ticked(page, 5, True)
    page.add_script_tag(path=str(ROOT / "node_modules" / "axe-core" / "axe.min.js"))
    result = page.evaluate("() => axe.run(document.querySelector('.self-check'), {resultTypes: ['violations']})")
    context.close()
    assert [(v["id"], v["impact"]) for v in result["violations"] if v["impact"] in ("serious", "critical")] == []


def test_no_checker_or_hint_of_the_sheet_names_a_pytorch_keyword():
    texts = [path.read_text() for path in (FOLDER / "ejercicios_atencion" / "checkers").glob("*.py")]
    texts += [plain(hint) for exercise in LESSON.exercises for hint in exercise.hints]
    assert texts and not any("diagonal=" in text for text in texts)


# Each edition's page, its file and its verdict when every check passes; and three known mistakes each names.
EDITION_PAGES = {"es": ("index.html", "lesson.md", "Superado: todas las comprobaciones son correctas."),
                 "en": ("en/index.html", "lesson.en.md", "Passed: every check is right."),
                 "uk": ("uk/index.html", "lesson.uk.md", "Зараховано: усі перевірки пройдено.")}
MISTAKES_NAMED = [
    ("es", "parches", "channel_last.py", "canal por canal"),
    ("es", "objetivo_ordenado", "axis_zero.py", "axis=1"),
    ("es", "peso_en_escrito", "axes_swapped.py", "al revés"),
    ("en", "parches", "channel_last.py", "channel by channel"),
    ("en", "atencion_causal", "both_bugs_as_given.py", "after the softmax, and with k=0 as well"),
    ("en", "peso_en_escrito", "axes_swapped.py", "the wrong way round"),
    ("uk", "parches", "channel_last.py", "канал за каналом"),
    ("uk", "atencion_causal", "both_bugs_as_given.py", "ви наклали маску після softmax, та ще й із k=0"),
    ("uk", "peso_en_escrito", "axes_swapped.py", "ви порівняли осі навпаки"),
]


@pytest.mark.parametrize("language, exercise, wrong, words", MISTAKES_NAMED)
def test_each_edition_names_a_mistake_in_its_words_and_passes_its_reference_in_the_page(page, course_server, language,
                                                                                      exercise, wrong, words):
    """The edition's own files as its page has them: its reference, and lesson.md's known-wrong solution under the
    edition's function name."""
    path, source, verdict = EDITION_PAGES[language]
    found = next(found for found in read_lesson(FOLDER / source)[0].exercises if found.id == exercise)
    page.goto(course_server.url("{}/{}".format(SLUG, path)))
    assert_page_names_mistake_then_passes(page, exercise, found.wrong[wrong], found.solution, words, verdict)


def test_the_causal_checker_writes_its_numbers_the_spanish_way():
    set_language("es")
    try:
        message = grade((EXERCISE / "starter.py").read_text(), CHECKER)["results"][-1]["message"]
    finally:
        set_language("en")
    assert re.search(r"la fila \d suma 0,\d{3}", message), message


@pytest.mark.parametrize("source, variable, function", [("lesson.md", "objetivo", "objetivo_ordenado"),
                                                        ("lesson.en.md", "target", "sorted_target"),
                                                        ("lesson.uk.md", "target", "sorted_target")])
def test_the_mini_project_s_recipe_for_training_with_the_learner_s_function_works_after_the_cell_has_run(
        source, variable, function):
    """Issue 53 item 4: the prose's one-line change makes the training cell use the learner's passed function, also
    when the cell ran before (its import no longer rebinds the learner's name)."""
    lesson = read_lesson(FOLDER / source)[0]
    code = next(cell.code for cell in lesson.cells if cell.key == "mp-dos-bloques")
    setup = code[:code.index("\n", code.index("\n{} = ".format(variable)) + 1)]  # the imports and the target line
    assert "{0}(X_".format(variable) in code  # the cell's targets come from that one name
    prose = (FOLDER / source).read_text(encoding="utf-8")
    recipe = re.search(r"`({} = {})`".format(variable, function), prose).group(1)  # the change the prose asks for

    def learners(X):
        return np.sort(X, axis=1)

    namespace = {function: learners}
    exec(compile(setup, source, "exec"), namespace)  # the cell as it stands, run once
    assert namespace[function] is learners and namespace[variable] is not learners
    changed = re.sub(r"^{} = .*$".format(variable), recipe, setup, flags=re.M)
    exec(compile(changed, source, "exec"), namespace)  # the cell with the prose's change, run again
    assert namespace[variable] is learners
