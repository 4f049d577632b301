"""The self-check directive: the build resolves what each item names, refuses names no block has, links stably."""

import re
import textwrap

import pytest

from coursebuild import cli

HEADER = "---\ntitle: T\nlanguage: en\norder: 1\nsummary: S.\n---\n\n"
BLOCKS = """\
## First part

```{quiz} truefalse
:id: first
question: One?
answer: true
explanation: Yes.
```

```{quiz} truefalse
question: A question with no id?
answer: false
explanation: No.
```

## Second part

```{code-cell} ipython3
:id: demo
print(1)
```

```{quiz} truefalse
:id: second
question: Two?
answer: true
explanation: Yes.
```

"""


def build(tmp_path, self_check, capsys, blocks=BLOCKS):
    """Build one lesson made of `blocks` and `self_check`; (status, stderr, page html)."""
    folder = tmp_path / "lessons" / "01-t"
    folder.mkdir(parents=True)
    (folder / "lesson.md").write_text(HEADER + blocks + textwrap.dedent(self_check), encoding="utf-8")
    status = cli.main(["--lessons", str(tmp_path / "lessons"), "--out", str(tmp_path / "_site"), "build"])
    page = tmp_path / "_site" / "01-t" / "index.html"
    return status, capsys.readouterr().err, page.read_text(encoding="utf-8") if page.exists() else ""


FIRST = HEADER.count("\n") + BLOCKS.count("\n") + 1  # the line of the self-check's opening fence


def test_each_item_links_once_per_section_to_stable_anchors_labelled_with_their_headings(tmp_path, capsys):
    status, err, page = build(tmp_path, """\
        ```{self-check}
        - text: Answer *both*.
          quiz: [second, first]
          cell: demo
        - text: Read the demo.
          cell: demo
        ```
        """, capsys)
    assert status == 0, err
    items = re.findall(r'<li class="self-check-item".*?</li>', page)
    assert len(items) == 2
    links = re.findall(r'<a href="#([^"]+)">([^<]+)</a>', items[0])
    # One link per heading, to the first named block under it in page order (the cell comes before quiz "second").
    assert links == [("quiz-first", "First part"), ("cell-demo", "Second part")]
    assert "<em>both</em>" in items[0] and "not checked automatically" not in items[0]
    assert re.findall(r'<a href="#([^"]+)"', items[1]) == ["cell-demo"] and "not checked automatically" in items[1]
    ids = set(re.findall(r'id="([^"]+)"', page))
    assert {"quiz-first", "quiz-second", "cell-demo"} <= ids
    assert '"self_checks": [{"id": 1, "items": [{"exercise": [], "quiz": ["second", "first"]}, ' \
           '{"exercise": [], "quiz": []}]}]' in page


def test_an_anchor_follows_its_block_when_a_block_is_inserted_before_it(tmp_path, capsys):
    status, _, page = build(tmp_path, "```{self-check}\n- text: T.\n  quiz: second\n```\n", capsys)
    assert status == 0
    before = re.search(r'id="quiz-second">([^<]+)<', page).group(1)
    inserted = tmp_path / "again"
    folder = inserted / "lessons" / "01-t"
    folder.mkdir(parents=True)
    source = HEADER + BLOCKS.replace("## Second part", "```{quiz} truefalse\nquestion: New?\nanswer: true\n"
                                     "explanation: E.\n```\n\n## Second part")
    (folder / "lesson.md").write_text(source + "```{self-check}\n- text: T.\n  quiz: second\n```\n")
    assert cli.main(["--lessons", str(inserted / "lessons"), "--out", str(inserted / "_site"), "build"]) == 0
    after_page = (inserted / "_site" / "01-t" / "index.html").read_text()
    after = re.search(r'id="quiz-second">([^<]+)<', after_page).group(1)
    assert (before, after) == ("Question 3.", "Question 4.")  # its number moved, its anchor did not
    assert '<a href="#quiz-second">' in after_page


def test_a_block_under_no_heading_is_linked_by_its_own_name(tmp_path, capsys):
    untitled = BLOCKS.split("## First part\n")[1].split("## Second part")[0]  # quiz "first", then one with no id
    status, err, page = build(tmp_path, "```{self-check}\n- text: T.\n  quiz: first\n```\n", capsys, untitled)
    assert status == 0, err
    assert '<a href="#quiz-first">Question 1</a>' in page


ERRORS = {
    "an unknown quiz": ("- text: T.\n  quiz: [first, secnd]\n", 2,
                        "self-check item 1 names quiz 'secnd', which no quiz in the lesson has (did you mean 'second'?); to "
                        "name one, give it an ':id: secnd' line after its opening line (named quizzes: first, second)"),
    "an unknown exercise": ("- text: T.\n  exercise: multi_head\n", 2,
                            "self-check item 1 names exercise 'multi_head', which no exercise in the lesson has; an "
                            "exercise is named by the id after '{exercise}' (named exercises: none)"),
    "an unknown cell": ("- text: T.\n  cell: [demo]\n- text: U.\n  cell: [plot]\n", 4,
                        "self-check item 2 names cell 'plot', which no cell in the lesson has"),
    "a key no item takes": ("- text: T.\n  quizz: first\n", 2,
                            "self-check item 1 has no key 'quizz:'; did you mean 'quiz:'?"),
    "a hash key for a name": ("- text: T.\n  quiz: '~0123456789'\n", 2,
                              "self-check item 1 names quiz '~0123456789', which no quiz in the lesson has; to name "
                              "one, give it an ':id: quiz-0123456789' line after its opening line"),
    "an item naming nothing": ("- text: T.\n", 1, "self-check item 1 names no block"),
    "an item without text": ("- quiz: first\n", 1, "self-check item 1 lacks 'text:'"),
    "a number for a name": ("- text: T.\n  quiz: [first, 3]\n", 2, "self-check item 1: 'quiz:' takes the id of a quiz or a list of ids"),
    "not a list": ("text: T.\n", 0, "a self-check is a YAML list of items"),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_a_malformed_self_check_is_refused_at_its_line(tmp_path, capsys, case):
    body, offset, message = ERRORS[case]  # offset: the line in the directive's body (0: its opening fence)
    status, err, _ = build(tmp_path, "```{self-check}\n" + body + "```\n", capsys)
    assert status == 1 and "Traceback" not in err
    assert "lesson.md:{}: {}".format(FIRST + offset, message) in err, err


def test_a_quiz_without_an_id_cannot_be_named_and_the_error_says_how_to_name_it(tmp_path, capsys):
    status, err, _ = build(tmp_path, "```{self-check}\n- text: T.\n  quiz: no-id\n```\n", capsys)
    assert status == 1
    assert "to name one, give it an ':id: no-id' line after its opening line (named quizzes: first, second)" in err
