"""Shared by tests and benchmarks: where things are, how to start Chromium and a server, and finite differences."""

import os
import re
import shutil
import sys
import threading
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "py"))
# Every lesson's own package, importable at once: their names differ, as their folders' names do.
sys.path[1:1] = [str(folder) for folder in sorted((ROOT / "lessons").iterdir()) if folder.is_dir()]

from coursebuild import cli  # noqa: E402
from coursebuild.serve import make_server  # noqa: E402

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"]


# A function body (the engine suite's driver.js runs it; Chromium's page.evaluate wraps it in "() => {...}"), with
# every <details> opened: every bracket that MathML lets stretch (not stretchy="false", as TeX's bare "(" is) beside
# a matrix or a fraction in the same row: [how many were measured, the ones shorter than what they enclose].
SHORT_BRACKETS = """
document.querySelectorAll('main details').forEach((details) => { details.open = true; });
const short = [];
let measured = 0;
for (const mo of document.querySelectorAll('main mo')) {
  if (!/^[()\\[\\]{}]$/.test(mo.textContent.trim()) || mo.getAttribute('stretchy') === 'false') continue;
  const tall = [...mo.parentElement.children].filter((e) => e.matches('mtable, mfrac'));
  if (!tall.length || !mo.getClientRects().length) continue;
  measured += 1;
  const need = Math.max(...tall.map((e) => e.getBoundingClientRect().height));
  const height = mo.getBoundingClientRect().height;
  if (height < 0.9 * need) {
    short.push(mo.textContent.trim() + ' ' + Math.round(height) + ' px beside ' + Math.round(need) + ' px in '
               + mo.closest('math').textContent.slice(0, 40));
  }
}
return [measured, short];
"""


def lesson_pages(lessons=ROOT / "lessons"):
    """Every lesson page's key, as the site names its folder: '<folder>' for lesson.md, '<folder>/<language>' for
    each edition lesson.<language>.md."""
    from coursebuild.lesson import PRIMARY_FILE, edition_of
    keys = []
    for path in sorted(Path(lessons).glob("*/lesson*.md")):
        if path.name == PRIMARY_FILE:
            keys.append(path.parent.name)
        elif edition_of(path):
            keys.append("{}/{}".format(path.parent.name, edition_of(path)))
    return sorted(keys)


MULTI_HEAD_CHECKER = ROOT / "lessons" / "000-varias-cabezas" / "varias_cabezas" / "checkers" / "multi_head.py"


def give_checker(folder, name="multi_head", source=MULTI_HEAD_CHECKER):
    """Give the lesson in `folder` a package of its own holding one checker (lesson 000's, by default)."""
    package = folder / re.sub(r"^[0-9]+[-_]", "", folder.name).replace("-", "_")
    (package / "checkers").mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "checkers" / "__init__.py").write_text("", encoding="utf-8")
    (package / "checkers" / (name + ".py")).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    return package


def assert_every_mistake_named(exercise, checker, named):
    """Every known-wrong solution of `exercise` fails `checker` with a sentence of its own that names its mistake."""
    from course.exercise import grade
    assert sorted(exercise.wrong) == sorted(named)
    messages = set()
    for name, code in exercise.wrong.items():
        result = grade(code, checker)
        assert not result["passed"], name
        message = result["results"][-1]["message"]
        assert named[name] in message, (name, message)
        messages.add(message)
    assert len(messages) == len(exercise.wrong)


def chromium_path():
    """Debian's Chromium where it exists ($COURSE_CHROMIUM overrides); None means Playwright's own browser."""
    named = os.environ.get("COURSE_CHROMIUM")
    if named:
        return named
    for candidate in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if Path(candidate).exists():
            return candidate
    return shutil.which("chromium")


def launch(playwright):
    """A headless Chromium with the flags that work on these machines."""
    return playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)


def build_site(lessons, out, *extra):
    """Build lessons into out with the project's cache; fail loudly if the build fails."""
    status = cli.main(["--lessons", str(lessons), "--out", str(out), *extra, "build"])
    assert status == 0, "the build of {} failed".format(lessons)
    return Path(out)


def build_one_lesson(tmp_path_factory, folder):
    """Build a copy of the lesson in `folder` alone, with its tests left out, into a fresh site; the site's folder."""
    lessons = tmp_path_factory.mktemp("lessons")
    shutil.copytree(folder, lessons / folder.name, ignore=shutil.ignore_patterns("tests", "__pycache__"))
    return build_site(lessons, tmp_path_factory.mktemp("site"))


def run_cells(lesson, *keys):
    """Run `lesson`'s cells with these ':id:'s, in page order, in one namespace, as the page runs them."""
    namespace = {}
    for cell in lesson.cells:
        if cell.key in keys:
            exec(compile(cell.code, cell.key, "exec"), namespace)
    return namespace


def cell_output(page, lesson, key):
    """The build-time output of the cell of `lesson` (parsed) with this ':id:' in a built page, as plain text."""
    import html
    number = next(cell.number for cell in lesson.cells if cell.key == key)
    section = re.search(r'<section class="cell" id="cell-{}".*?</section>'.format(number), page, re.S).group(0)
    return html.unescape(re.sub(r"<[^>]+>", "", section.split('class="cell-output"', 1)[1]))


def quiz_of(lesson, key):
    """The quiz of `lesson` (parsed) with this ':id:'."""
    return next(found for found in lesson.quizzes if found.key == key)


# The quiz's entry in its page's data (option ids in source order, the ids of the right ones), read in the quiz's own
# document (a lesson in a platform's frame too).
QUIZ_DATA = """(form) => JSON.parse(form.ownerDocument.getElementById('page-data').textContent)
  .quizzes.find((quiz) => 'quiz-' + quiz.id === form.id)"""


def quiz_option(quiz, text):
    """The input of `quiz`'s option (`quiz`: a locator of its form) whose label reads `text`, exactly (a string) or
    matching a compiled pattern. The page shows a choice quiz's options in an order drawn per learner: a test picks
    an option by what it says, or by its id (quiz_options), never by its place on the page."""
    return quiz.get_by_label(text, exact=True) if isinstance(text, str) else quiz.get_by_label(text)


def quiz_options(quiz, which="options"):
    """The inputs of `quiz`'s options as the source lists them ("options"), or of its right ones ("correct") or the
    wrong ones ("wrong"), found by option id, whatever order the page shows them in."""
    data = quiz.evaluate(QUIZ_DATA)
    ids = [one for one in data["options"] if one not in data["correct"]] if which == "wrong" else data[which]
    return [quiz.locator('.quiz-inputs input[value="{}"]'.format(one)) for one in ids]


def quiz_data(quiz):
    """`quiz`'s entry in its page's data (`quiz`: a locator of its form): option ids, the ids of the right ones."""
    return quiz.evaluate(QUIZ_DATA)


def italic_words(body):
    """The words a parsed Markdown body sets in italics (*mouse*), in order."""
    source = " ".join(token.content for token in body.tokens if token.type == "inline")
    return re.findall(r"\*(\w+)\*", source)


def assert_quiz_marks_right(question, words):
    """The quiz's right options, and only they, set exactly `words` in italics, as its key is recomputed."""
    marked = [italic_words(question.options[index]) for index in question.correct]
    assert marked == [words]
    others = [italic_words(option) for index, option in enumerate(question.options) if index not in question.correct]
    assert words not in others


def in_language(language, function, *args):
    """function(*args) with course.numbers set to `language`, as the page's runner sets it; restored after."""
    from course import numbers
    previous = numbers.current_language()
    numbers.set_language(language)
    try:
        return function(*args)
    finally:
        numbers.set_language(previous)


class Server:
    """The project's own static server on 127.0.0.1, in a thread, recording what it sends."""

    def __init__(self, site):
        self.httpd = make_server(site, 0, record=True)
        self.port = self.httpd.server_address[1]
        self.origin = "http://127.0.0.1:{}".format(self.port)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def served(self, part):
        """(path, bytes) of every request answered so far whose path contains `part`."""
        return [(path, size) for path, size in self.httpd.log if part in path]

    def url(self, path=""):
        return "{}/{}".format(self.origin, path)

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def edit_cell(page, number, code):
    """Open cell `number`'s editor and replace its code, as a learner types."""
    from playwright.sync_api import expect
    page.locator("#cell-{} .cell-code".format(number)).click()
    editor = page.locator("#cell-{} .cm-content".format(number))
    expect(editor).to_be_visible()
    editor.press("Control+a")
    page.keyboard.insert_text(code)


def store_the_course_offline(page, server):
    """From the course's index on `server`, store the course for offline use and wait until it is ready."""
    from playwright.sync_api import expect
    page.goto(server.url("index.html"))
    page.locator("[data-action=offline-save]").click()
    expect(page.locator(".offline")).to_have_attribute("data-state", "ready", timeout=120_000)

def serve_built_site(lessons, out):
    """Build `lessons` into `out` and serve the site until the generator is closed: a fixture's `yield from`."""
    server = Server(build_site(lessons, out))
    yield server
    server.close()

def submit_exercise(page, exercise_id, code):
    """Type `code` into an exercise's editor as a learner would, press Check and wait for the verdict."""
    import re

    from playwright.sync_api import expect
    exercise = page.locator("#exercise-{}".format(exercise_id))
    exercise.locator(".cell-code").click()
    editor = exercise.locator(".cm-content")
    expect(editor).to_be_visible(timeout=30_000)  # the editor bundle loads on first edit; a busy machine is slow
    editor.press("Control+a")
    page.keyboard.insert_text(code)
    exercise.locator("[data-action=check]").click()
    expect(exercise).to_have_attribute("data-state", re.compile("done|failed"), timeout=120_000)
    return exercise



def assert_page_names_mistake_then_passes(page, exercise_id, wrong, solution, words, verdict):
    """In the page, the known-wrong `wrong` fails the exercise with a sentence holding `words`; then the reference
    `solution` passes all six checks, under the page's `verdict`."""
    from playwright.sync_api import expect
    block = submit_exercise(page, exercise_id, wrong)
    expect(block.locator(".check-fail")).to_contain_text(words)
    block = submit_exercise(page, exercise_id, solution)
    expect(block.locator(".check-verdict")).to_have_text(verdict)
    expect(block.locator(".check-ok")).to_have_count(6)


def show_a_hint_then_run_the_first_cell(page, exercise):
    """What a learner does after a failed check: open the exercise's first hint, then run cell 1 to its end."""
    from playwright.sync_api import expect
    exercise.locator("[data-action=hint]").click()
    page.locator("#cell-1 [data-action=run]").click()
    expect(page.locator("#cell-1")).to_have_attribute("data-state", "done", timeout=120_000)

def serious_axe_findings(page, scope="document"):
    """The serious and critical findings of axe in the page, or in `scope` (a JavaScript expression naming one part
    of it), as (rule, impact, its first three targets). axe is injected as a script: the page's context must bypass
    its own policy."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run({}, {{resultTypes: ['violations']}})".format(scope))
    return [(v["id"], v["impact"], [node["target"] for node in v["nodes"]][:3]) for v in result["violations"]
            if v["impact"] in ("serious", "critical")]


def display_formulas_too_wide(page):
    """With every <details> opened: how many display formulas the page has, and the opening words of those wider
    than their box."""
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    wide = page.evaluate("() => [...document.querySelectorAll('.math.block')].filter((e) => e.scrollWidth > "
                         "e.clientWidth + 1).map((e) => e.textContent.trim().slice(0, 40))")
    return page.locator(".math.block").count(), wide

def numeric_gradient(f, array, picks=12, eps=1e-6, seed=0):
    """Central differences of the scalar f() with respect to a few entries of `array` (changed in place, then
    restored): the indices picked, and the estimates there. The course toolkit's gradient tests and the lessons' own
    use it."""
    rng = np.random.default_rng(seed)
    indices = [tuple(rng.integers(0, size) for size in array.shape) for _ in range(picks)]
    return indices, np.array([finite_difference(f, array, index, eps) for index in indices])


def finite_difference(f, array, index, eps=1e-6):
    """Central difference of the scalar f() with respect to array[index] (changed in place, then restored)."""
    keep = array[index]
    array[index] = keep + eps
    plus = f()
    array[index] = keep - eps
    minus = f()
    array[index] = keep
    return (plus - minus) / (2 * eps)


def run_on_own_thread(coroutine):
    """Run a coroutine (a training) to its end on a thread of its own (Playwright's loop may be running in this one);
    what it returns."""
    import asyncio
    result = {}
    thread = threading.Thread(target=lambda: result.update(value=asyncio.run(coroutine)))
    thread.start()
    thread.join()
    return result["value"]
