"""Saved work of an unexpected shape never kills a page; blocks have stable keys; the page finds its own elements.

Browser tests load tests/fixtures/saved-work (cells, one quiz of each kind, an exercise, and output that imitates
the page's controls); build tests check the `:id:` option and the refusal of non-finite page data.
"""

import json
import re

import pytest
from playwright.sync_api import expect
from test_build import FRONT_MATTER, build, write_lesson

from coursebuild.blocks import code_cell
from support import ROOT, Server, build_site, quiz_option

LESSON = "01-saved/index.html"
SLUG = "01-saved"


@pytest.fixture(scope="module")
def saved_server(tmp_path_factory):
    site = build_site(ROOT / "tests" / "fixtures" / "saved-work" / "lessons",
                      tmp_path_factory.mktemp("saved-work") / "_site")
    server = Server(site)
    yield server
    server.close()


def name(kind, block_id):
    return "course:v1:{}:{}:{}".format(SLUG, kind, block_id)


def page_data(page):
    return page.evaluate("() => JSON.parse(document.querySelector('body > script#page-data').textContent)")


def storage(page):
    return page.evaluate("() => Object.fromEntries(Object.entries(localStorage))")


def set_aside(page):
    """Every set-aside record of the lesson, by the kind:id it came from."""
    records = {}
    for key, text in storage(page).items():
        if key.startswith(name("set-aside", "")):
            record = json.loads(text)
            records["{}:{}".format(record["kind"], record["id"])] = record
    return records


def notice(page, selector):
    return page.locator("{} > .saved-notice".format(selector))


def run_all(page):
    page.locator("[data-action=run-all]").click()
    for number in (1, 2, 3):
        expect(page.locator("#cell-{}".format(number))).to_have_attribute("data-state", "done", timeout=120_000)


def test_corrupt_misshaped_and_foreign_work_is_set_aside_with_a_notice_and_every_block_still_works(page, saved_server):
    page.goto(saved_server.url(LESSON))
    data = page_data(page)
    cells, quizzes = data["cells"], data["quizzes"]
    assert cells[0]["key"] == "first" and quizzes[0]["key"] == "pick"
    saved = {
        name("cell", "first"): json.dumps({"code": 42}),  # wrong type
        name("cell", 2): json.dumps({"code": "print('mine')", "original": cells[1]["code"]}),  # old positional key
        name("cell", cells[2]["key"]): "{not json",  # garbage
        name("quiz", 1): json.dumps({"answer": 7, "checked": True}),  # old key, option out of range
        name("quiz", 2): json.dumps({"answer": 5, "checked": True}),  # old key, a multiple answer that is no list
        name("quiz", quizzes[2]["key"]): json.dumps({"answer": 42, "checked": True}),  # a number, not the text typed
        name("quiz", quizzes[3]["key"]): json.dumps({"answer": False, "checked": True}),  # fits: restored
        name("exercise", "multi_head"): json.dumps({"attempts": -1, "hints": 9}),
        name("exercise-code", "multi_head"): json.dumps("just a string"),
        name("cell", "~0000000000"): json.dumps({"code": "print('lost')", "original": "gone"}),  # no such block
        name("quiz", 99): json.dumps({"answer": 0}),
        name("exercise", "gone"): json.dumps({"attempts": 1}),
        "someone-else": "not ours",
    }
    page.evaluate("(saved) => Object.entries(saved).forEach(([k, v]) => localStorage.setItem(k, v))", saved)
    page.reload()

    aside = "was set aside; it stays in the work you export"
    for selector in ("#cell-1", "#cell-3", "#quiz-3", "#exercise-multi_head"):
        expect(notice(page, selector)).to_contain_text(aside)
    for selector in ("#quiz-1", "#quiz-2"):
        expect(notice(page, selector)).to_contain_text("from an earlier version of this page did not fit")
    expect(notice(page, "#cell-2")).to_have_text("Your saved work from an earlier version of this page was carried "
                                                 "over to this block.")
    expect(page.locator(".saved-notice-page")).to_contain_text("3 saved items belong to blocks this page no longer")
    expect(notice(page, "#quiz-4")).to_have_count(0)
    expect(page.locator("#quiz-4 .quiz-verdict")).to_have_text("Not quite.")  # the entry that fitted came back
    expect(page.locator("#cell-2 .cell-code code")).to_have_text("print('mine')")

    records = set_aside(page)
    assert records["cell:{}".format(cells[2]["key"])]["text"] == "{not json"
    assert records["cell:first"]["value"] == {"code": 42}
    assert records["quiz:1"]["value"] == {"answer": 7, "checked": True}
    assert records["exercise-code:multi_head"]["value"] == "just a string"
    assert records["cell:~0000000000"]["value"]["code"] == "print('lost')"
    assert {"quiz:2", "quiz:99", "exercise:gone", "exercise:multi_head", "quiz:" + quizzes[2]["key"]} <= set(records)
    after = storage(page)
    assert after["someone-else"] == "not ours"
    assert json.loads(after[name("cell", cells[1]["key"])])["code"] == "print('mine')"
    assert name("cell", 2) not in after and name("quiz", 1) not in after

    run_all(page)
    expect(page.locator("#cell-1 .cell-output")).to_have_text("x is 41\n")
    expect(page.locator("#cell-2 .cell-output")).to_have_text("mine\n")
    expect(page.locator("#cell-3 .cell-output")).to_have_text("42\n")
    answers = {1: lambda quiz: quiz_option(quiz, "A").check(),
               2: lambda quiz: [quiz_option(quiz, text).check() for text in ("2", "4")],
               3: lambda quiz: quiz.locator("input[type=text]").fill("42"),
               4: lambda quiz: quiz.get_by_label("True").check()}
    for number, give in answers.items():
        quiz = page.locator("#quiz-{}".format(number))
        give(quiz)
        quiz.locator("button[type=submit]").click()
        expect(quiz.locator(".quiz-verdict")).to_have_text("Right.")
    exercise = page.locator("#exercise-multi_head")
    exercise.locator("[data-action=hint]").click()
    expect(exercise.locator(".hints > li").first).to_be_visible()

    page.reload()  # set aside once: nothing more to say, and the answers given since are back
    expect(page.locator(".saved-notice")).to_have_count(0)
    expect(page.locator("#quiz-2 .quiz-verdict")).to_have_text("Right.")
    assert set(set_aside(page)) == set(records)


def test_work_moves_with_its_block_and_a_positional_entry_of_another_block_is_set_aside(page, saved_server):
    page.goto(saved_server.url(LESSON))
    cells = page_data(page)["cells"]
    stored = {name("cell", 3): {"code": "print('cell 1')", "original": "x = 40"},  # made from another cell's code
              name("cell", "first"): {"code": "print(2)", "original": cells[0]["code"]}}
    page.evaluate("(stored) => Object.entries(stored).forEach(([k, v]) => localStorage.setItem(k, JSON.stringify(v)))",
                  stored)
    page.reload()
    expect(page.locator("#cell-1 .cell-code code")).to_have_text("print(2)")
    expect(notice(page, "#cell-3")).to_contain_text("did not fit this block and was set aside")
    expect(page.locator("#cell-3 .cell-code code")).to_have_text("print(x + 1)")
    assert set_aside(page)["cell:3"]["value"]["code"] == "print('cell 1')"


def test_the_page_finds_its_own_elements_never_imitations_in_content(page, saved_server):
    def imitate(route):
        response = route.fetch()
        html = response.text().replace(
            'data-origin="build">', 'data-origin="build"><script type="application/json" id="page-data">'
            '{"kind": "index"}</script><button type="button" data-action="run" id="cell-3">imitation</button>'
            '<div class="runtime-bar" id="quiz-1"></div>', 1)
        route.fulfill(response=response, body=html)

    page.route(re.compile(r".*/01-saved/(index\.html)?$"), imitate)
    page.goto(saved_server.url(LESSON))
    expect(page.locator("#cell-1 .cell-output button")).to_have_text("imitation")
    expect(page.locator("main > .runtime-bar")).to_be_visible()
    page.locator("#cell-3 > .cell-bar [data-action=run]").click()
    expect(page.locator("section#cell-3 .cell-output")).to_have_text("42\n", timeout=120_000)
    quiz_option(page.locator("form#quiz-1"), "A").check()
    page.locator("form#quiz-1 button[type=submit]").click()
    expect(page.locator("form#quiz-1 .quiz-verdict")).to_have_text("Right.")

    # Output of the real lesson that imitates a stale note: editing the cell still marks its output stale.
    page.unroute(re.compile(r".*/01-saved/(index\.html)?$"))
    page.goto(saved_server.url(LESSON))
    page.locator("#cell-2 .cell-code").click()
    page.locator("#cell-2 .cm-content").press("End")
    page.keyboard.insert_text("\n")
    expect(page.locator("#cell-2 .cell-output > p.out-stale")).to_be_visible()
    # A hint's own list is part of the hint, not a hint of its own.
    exercise = page.locator("#exercise-multi_head")
    exercise.locator("[data-action=hint]").click()
    expect(exercise.locator(".hints > li").nth(0).locator("li").nth(1)).to_be_visible()
    expect(exercise.locator(".hints > li").nth(1)).to_be_hidden()
    expect(exercise.locator("[data-action=hint]")).to_have_text(re.compile(r"2\D+2"))


def test_an_import_keeps_the_stable_keys_and_sets_aside_work_for_blocks_the_course_lacks(page, saved_server,
                                                                                          tmp_path):
    page.goto(saved_server.url(LESSON))
    cells = page_data(page)["cells"]
    page.goto(saved_server.url("index.html"))
    entries = {name("cell", "first"): {"code": "print('a')", "original": cells[0]["code"]},
               name("cell", 2): {"code": "print('b')", "original": cells[1]["code"]},
               name("cell", "~ffffffffff"): {"code": "print('c')", "original": "older"},
               name("set-aside", "quiz%3A1"): {"kind": "quiz", "id": "1", "reason": "mismatch", "value": {}}}
    receipt = tmp_path / "receipt.json"
    receipt.write_text(json.dumps({"format": "attention-course-work", "version": 1, "entries": entries}))
    page.locator("input[type=file]").set_input_files(str(receipt))
    expect(page.locator(".work-status")).to_contain_text(
        "Saved items in the file: 4; added or replaced here: 2. Open a lesson to see them. "
        "01-saved: 2 added, 0 replaced, 0 kept, 2 set aside.")
    after = storage(page)
    assert json.loads(after[name("cell", "first")])["code"] == "print('a')"
    assert json.loads(after[name("set-aside", "cell%3A~ffffffffff")])["value"]["code"] == "print('c')"
    assert name("cell", "~ffffffffff") not in after and name("set-aside", "quiz%3A1") in after
    with page.expect_download() as download:
        page.locator("[data-action=export]").click()
    exported = json.loads(open(download.value.path(), encoding="utf-8").read())["entries"]
    assert set(exported) == set(after) - {key for key in after if not key.startswith("course:")}
    page.goto(saved_server.url(LESSON))
    expect(page.locator("#cell-1 .cell-code code")).to_have_text("print('a')")
    expect(page.locator("#cell-2 .cell-code code")).to_have_text("print('b')")


def test_an_export_keeps_work_no_page_has_read_yet_even_of_a_strange_shape_and_imports_back(page, saved_server,
                                                                                          tmp_path):
    page.goto(saved_server.url(LESSON))
    first = page_data(page)["cells"][0]["code"]
    page.goto(saved_server.url("index.html"))
    saved = {name("cell", "first"): json.dumps({"code": "print('a')", "original": first}),
             name("cell", "~0000000000"): "{not json",
             name("exercise-code", "multi_head"): json.dumps("just a string")}
    page.evaluate("(saved) => Object.entries(saved).forEach(([k, v]) => localStorage.setItem(k, v))", saved)
    with page.expect_download() as download:
        page.locator("[data-action=export]").click()
    # The three strange entries, and what the lesson's opening recorded: the visit and the seed of its options' order.
    expect(page.locator(".work-status")).to_have_text("Exported 5 saved items.")
    receipt = tmp_path / "receipt.json"
    download.value.save_as(receipt)
    exported = json.loads(receipt.read_text(encoding="utf-8"))["entries"]
    assert name("visit", "page") in exported and name("seed", "order") in exported
    assert exported[name("set-aside", "cell%3A~0000000000")]["text"] == "{not json"
    assert exported[name("set-aside", "exercise-code%3Amulti_head")]["value"] == "just a string"

    page.evaluate("() => localStorage.clear()")
    page.locator("input[type=file]").set_input_files(str(receipt))
    expect(page.locator(".work-status")).to_contain_text(
        "Saved items in the file: 5; added or replaced here: 3. Open a lesson to see them. "
        "01-saved: 3 added, 0 replaced, 0 kept, 2 set aside.")
    assert set(storage(page)) == set(exported)
    page.locator("input[type=file]").set_input_files(str(receipt))  # again: this browser has it all already
    expect(page.locator(".work-status")).to_contain_text(
        "Saved items in the file: 5; none was added or replaced here. 01-saved: 0 added, 0 replaced, 5 kept, 0 set aside.")
    assert set(storage(page)) == set(exported)
    page.goto(saved_server.url(LESSON))
    expect(page.locator("#cell-1 .cell-code code")).to_have_text("print('a')")


TWO_CELLS = FRONT_MATTER + """
```{{code-cell}} ipython3
{first}
```

```{{code-cell}} ipython3
{second}
```

```{{quiz}} truefalse
{quiz_id}question: Q?
answer: true
explanation: E.
```
"""


def keys(root):
    page = (root / "_site" / "01-lesson" / "index.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="page-data">(.*?)</script>', page, re.S).group(1))
    return {cell["code"]: cell["key"] for cell in data["cells"]}, [quiz["key"] for quiz in data["quizzes"]]


def test_a_blocks_key_follows_its_source_or_its_id_not_its_position(tmp_path, capsys):
    write_lesson(tmp_path, TWO_CELLS.format(first="print(1)", second=":id: second\nprint(2)", quiz_id=""))
    assert build(tmp_path, capsys)[0] == 0
    before, quiz_before = keys(tmp_path)
    write_lesson(tmp_path, TWO_CELLS.format(first=":id: second\nprint(22)", second="print(1)", quiz_id=":id: q\n"))
    assert build(tmp_path, capsys)[0] == 0
    after, quiz_after = keys(tmp_path)
    assert after["print(1)"] == before["print(1)"] and before["print(1)"].startswith("~")
    assert before["print(2)"] == after["print(22)"] == "second"
    assert quiz_after == ["q"] and quiz_before[0].startswith("~")
    write_lesson(tmp_path, TWO_CELLS.format(first="print(1)", second="print(1)", quiz_id=""))
    assert build(tmp_path, capsys)[0] == 0
    assert len(set(json.loads(re.search(r'id="page-data">(.*?)</script>', (
        tmp_path / "_site" / "01-lesson" / "index.html").read_text(), re.S).group(1))["cells"][i]["key"]
        for i in (0, 1))) == 2  # the same code twice still gives two keys


@pytest.mark.parametrize("first, second, message", [
    (":id: 12\nprint(1)", "print(2)", "lesson.md:8: ':id:' must be a name that starts with a letter"),
    (":id: same\nprint(1)", ":id: same\nprint(2)", "lesson.md:13: the cell id 'same' is already used at line 8"),
])
def test_a_bad_or_repeated_id_is_refused_with_file_and_line(tmp_path, capsys, first, second, message):
    write_lesson(tmp_path, TWO_CELLS.format(first=first, second=second, quiz_id=""))
    status, err = build(tmp_path, capsys)
    assert status != 0 and message in err and "Traceback" not in err


@pytest.mark.parametrize("number", [".inf", "-.inf", ".nan", "1e999"])
def test_a_non_finite_number_an_author_writes_is_refused_with_file_and_line(tmp_path, capsys, number):
    write_lesson(tmp_path, TWO_CELLS.format(first="print(1)", second="print(2)", quiz_id="").replace(
        "```{quiz} truefalse\nquestion: Q?\nanswer: true",
        "```{{quiz}} numeric\nquestion: Q?\nanswer: {}\ntolerance: 0".format(number)))
    status, err = build(tmp_path, capsys)
    assert status != 0 and "lesson.md:18: " in err and "finite" in err and "Traceback" not in err
    assert not (tmp_path / "_site").exists()


def test_every_blocks_page_data_is_checked_for_non_finite_numbers(tmp_path, capsys, monkeypatch):
    original = code_cell.CodeCell.data
    monkeypatch.setattr(code_cell.CodeCell, "data",
                        lambda self: dict(original(self), scale=[1.0, float("nan")]) if "2" in self.code
                        else original(self))
    write_lesson(tmp_path, TWO_CELLS.format(first="print(1)", second="print(2)", quiz_id=""))
    status, err = build(tmp_path, capsys)
    assert status != 0 and "Traceback" not in err
    assert "lesson.md:12: the code-cell block would write a number that is not finite into the page (scale[1])" in err
    assert "lesson.md:8:" not in err


def test_a_full_storage_shows_one_notice_and_export_still_holds_the_answer_the_edit_and_the_hint(page, saved_server,
                                                                                                 tmp_path):
    page.add_init_script("""Storage.prototype.setItem = function () {
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    };""")
    page.goto(saved_server.url(LESSON))
    quiz = page.locator("#quiz-1")
    quiz_option(quiz, "A").check()
    quiz.locator("button[type=submit]").click()
    expect(quiz.locator(".quiz-verdict")).to_have_text("Right.")
    notices = page.locator(".saved-notice-unsaved")
    expect(notices).to_have_count(1)
    expect(notices).to_contain_text("Your work can't be kept in this browser")
    page.locator("#cell-1 .cell-code").click()
    page.locator("#cell-1 .cm-content").press("Control+a")
    page.keyboard.insert_text("print('kept in memory')")
    exercise = page.locator("#exercise-multi_head")
    exercise.locator("[data-action=hint]").click()
    expect(exercise.locator(".hints > li").first).to_be_visible()
    with page.expect_download() as download:
        notices.locator("[data-action=export-unsaved]").click()
    entries = json.loads(open(download.value.path(), encoding="utf-8").read())["entries"]
    expect(notices).to_have_count(1)
    assert entries[name("quiz", "pick")]["answer"] == quiz_option(quiz, "A").get_attribute("value")  # by option id
    assert entries[name("cell", "first")]["code"] == "print('kept in memory')"
    assert entries[name("exercise", "multi_head")]["hints"] == 1
    assert storage(page) == {}


def test_set_aside_work_that_fits_its_block_again_comes_back_and_a_large_hint_count_shows_every_hint(page,
                                                                                                    saved_server):
    page.goto(saved_server.url(LESSON))
    # Set aside by an older page, which saved answers by position (0: the first option in source order, A).
    saved = {name("set-aside", "quiz%3Apick"): json.dumps({"kind": "quiz", "id": "pick", "reason": "no-block",
                                                            "value": {"answer": 0, "checked": True}}),
             name("exercise", "multi_head"): json.dumps({"attempts": 1, "hints": 9})}
    page.evaluate("(saved) => Object.entries(saved).forEach(([k, v]) => localStorage.setItem(k, v))", saved)
    page.reload()
    expect(page.locator(".saved-notice-page")).to_have_text(
        "1 saved item that had been set aside fits its block again and came back to it.")
    expect(page.locator("#quiz-1 .quiz-verdict")).to_have_text("Right.")
    expect(quiz_option(page.locator("#quiz-1"), "A")).to_be_checked()
    page.wait_for_function("(id) => JSON.parse(localStorage.getItem({})).answer === id".format(
        json.dumps(name("quiz", "pick"))), arg=quiz_option(page.locator("#quiz-1"), "A").get_attribute("value"))
    exercise = page.locator("#exercise-multi_head")
    expect(exercise.locator(".hints > li").last).to_be_visible()
    expect(exercise.locator("[data-action=hint]")).to_be_hidden()
    expect(notice(page, "#exercise-multi_head")).to_have_count(0)
    assert set_aside(page) == {}


def test_an_older_receipt_over_newer_work_keeps_the_newer_and_the_older_comes_back_in_the_export(page, saved_server,
                                                                                                 tmp_path):
    page.goto(saved_server.url(LESSON))
    quiz_key = page_data(page)["quizzes"][1]["key"]  # a multiple choice: [9] is no answer it can show
    quiz = page.locator("#quiz-1")
    quiz_option(quiz, "A").check()
    quiz.locator("button[type=submit]").click()
    expect(quiz.locator(".quiz-verdict")).to_have_text("Right.")
    mine = quiz_option(quiz, "A").get_attribute("value")
    page.goto(saved_server.url("index.html"))
    # An older receipt, from a page that saved answers by position (1: B).
    entries = {name("quiz", "pick"): {"answer": 1, "checked": True, "state": "wrong", "at": "2020-01-01T00:00:00Z"},
               name("quiz", quiz_key): {"answer": [9], "checked": True}}
    receipt = tmp_path / "receipt.json"
    receipt.write_text(json.dumps({"format": "attention-course-work", "version": 1, "entries": entries}))
    page.locator("input[type=file]").set_input_files(str(receipt))
    expect(page.locator(".work-status")).to_contain_text("01-saved: 0 added, 0 replaced, 1 kept, 1 set aside.")
    with page.expect_download() as download:
        page.locator("[data-action=export]").click()
    exported = json.loads(open(download.value.path(), encoding="utf-8").read())["entries"]
    assert exported[name("quiz", "pick")]["answer"] == mine
    older = exported[name("set-aside", "quiz%3Apick")]
    assert (older["reason"], older["value"]["answer"]) == ("older", 1)
    wrong_shape = exported[name("set-aside", "quiz%3A" + quiz_key)]
    assert (wrong_shape["reason"], wrong_shape["value"]["answer"]) == ("mismatch", [9])
    assert name("quiz", quiz_key) not in exported
    page.goto(saved_server.url(LESSON))
    expect(page.locator("#quiz-1 .quiz-verdict")).to_have_text("Right.")



def test_blocked_storage_breaks_no_block_and_says_once_that_the_work_cannot_be_kept(page, saved_server):
    page.add_init_script("""Object.defineProperty(window, "localStorage", {
        get() { throw new DOMException("The operation is insecure.", "SecurityError"); },
    });""")
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(saved_server.url(LESSON))
    quiz = page.locator("#quiz-4")
    quiz.get_by_label("True").check()
    quiz.locator("button[type=submit]").click()
    expect(quiz.locator(".quiz-verdict")).to_have_text("Right.")
    page.locator("#exercise-multi_head [data-action=hint]").click()
    expect(page.locator(".saved-notice-unsaved")).to_have_count(1)
    expect(page.locator(".saved-notice:not(.saved-notice-unsaved)")).to_have_count(0)  # no block failed to start
    assert errors == []
