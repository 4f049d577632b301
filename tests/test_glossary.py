"""One voice across the course: no lesson's prose uses a variant its language's glossary (docs/glossary-XX.md) rejects.

Prose is what a learner reads as text: paragraphs and headings, the front matter's title and summary, quiz
questions, options and explanations, explorable captions, exercise prompts and hints, answers and further
reading. Code cells, fenced code, `code spans`, math and link targets are not prose. A variant matches as whole
words, case-insensitively; a variant of several words matches across one line break, never across a blank line.
"""

import re

import pytest

from support import ROOT

LESSONS = sorted((ROOT / "lessons").glob("*/lesson*.md"))  # lesson.md and its editions, lesson.<language>.md
FIXTURE = ROOT / "tests" / "fixtures" / "glossary" / "lessons" / "01-rejected-terms" / "lesson.md"
PROSE_FENCES = ("quiz", "explorable", "self-check")  # backtick directives whose body the learner reads
FRONT_MATTER_PROSE = ("title", "summary")
FENCE = re.compile(r"^(`{3,}|~{3,})\s*(\{([\w-]+)\})?")
COLON_FENCE = re.compile(r"^:{3,}\s*(\{[\w-]+\})?\s*(.*)$")
OPTION_LINE = re.compile(r"^:[\w-]+:")
INLINE_NOT_PROSE = re.compile(r"(`+).*?\1|\$[^$]*\$|\]\([^)]*\)")  # code spans, inline math, link targets
BETWEEN_WORDS = r"(?:[ \t]+|[ \t]*\n[ \t]*)"
BREAK = "\n¶\n"  # joins prose lines that are not neighbours in the file, so no phrase spans them


def glossary_path(language):
    """The glossary of one language."""
    return ROOT / "docs" / "glossary-{}.md".format(language)


def read_glossary(path):
    """The rows of a glossary's table: (line, preferred term, [rejected variants])."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        assert len(cells) == 3, "{}:{}: a glossary row has three columns (concept, term, variants)".format(path, number)
        rows.append((number, cells[1], [variant.strip() for variant in cells[2].split(",") if variant.strip("— ")]))
    return rows[1:]  # the first row is the table's heading


def language_of(lines):
    """The `language:` of a lesson's front matter."""
    return next(line.split(":", 1)[1].strip() for line in lines if line.startswith("language:"))


def prose_lines(lines):
    """(line number, text) for every line of a lesson that is prose, with code spans, math and link targets blanked."""
    fence, in_math, front_matter = None, False, lines[:1] == ["---"]
    for number, line in enumerate(lines, 1):
        if front_matter:
            front_matter = number == 1 or line != "---"
            key, _, value = line.partition(":")
            if key in FRONT_MATTER_PROSE:
                yield number, value
            continue
        if fence:
            marker, is_prose = fence
            if re.match(r"^{}{{{},}}\s*$".format(re.escape(marker[0]), len(marker)), line):
                fence = None
            elif is_prose and not OPTION_LINE.match(line):
                yield number, INLINE_NOT_PROSE.sub(" ", line)
            continue
        opening = FENCE.match(line)
        if opening:
            fence = (opening.group(1), opening.group(3) in PROSE_FENCES)
            continue
        if line.strip().startswith("$$"):
            in_math = not (in_math or (len(line.strip()) > 2 and line.strip().endswith("$$")))
            continue
        colon = COLON_FENCE.match(line)
        if in_math or OPTION_LINE.match(line) or line.startswith("%"):
            continue
        yield number, INLINE_NOT_PROSE.sub(" ", colon.group(2) if colon else line)


def rejected_uses(path):
    """`file:line: ...` for every rejected variant in the prose of the lesson at `path`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    glossary = glossary_path(language_of(lines))
    text, starts, previous = "", [], None
    for number, line in prose_lines(lines):
        text += "" if previous is None else ("\n" if number == previous + 1 else BREAK)
        starts.append((len(text), number))
        text += line
        previous = number
    found = []
    for _, preferred, variants in read_glossary(glossary):
        for variant in variants:
            pattern = r"(?<!\w)" + BETWEEN_WORDS.join(map(re.escape, variant.split())) + r"(?!\w)"
            for match in re.finditer(pattern, text, re.IGNORECASE):
                line = max(number for start, number in starts if start <= match.start())
                found.append((line, "{}:{}: «{}» is not the course's term; write «{}» ({})".format(
                    path.relative_to(ROOT), line, " ".join(match.group(0).split()), preferred,
                    glossary.relative_to(ROOT))))
    return [message for _, message in sorted(found)]


@pytest.mark.parametrize("lesson", LESSONS, ids=[path.parent.name + "/" + path.name for path in LESSONS])
def test_every_lesson_uses_its_glossary_terms_in_its_prose(lesson):
    assert rejected_uses(lesson) == []


def test_a_rejected_term_in_prose_is_reported_at_its_line_with_the_preferred_term():
    where = "tests/fixtures/glossary/lessons/01-rejected-terms/lesson.md"
    assert rejected_uses(FIXTURE) == [
        where + ":2: «puntaje» is not the course's term; write «puntuación» (docs/glossary-es.md)",
        where + ":8: «Puntaje» is not the course's term; write «puntuación» (docs/glossary-es.md)",
        where + ":10: «el ancho» is not the course's term; write «anchura» (docs/glossary-es.md)",
        where + ":28: «producto punto» is not the course's term; write «producto escalar» (docs/glossary-es.md)",
        where + ":31: «costo» is not the course's term; write «coste» (docs/glossary-es.md)",
        where + ":34: «Auto-Atención» is not the course's term; write «autoatención» (docs/glossary-es.md)",
        where + ":37: «multi-head» is not the course's term; write «atención con varias cabezas» (docs/glossary-es.md)",
    ]


def test_every_lesson_language_has_a_glossary_whose_rows_name_a_term():
    for language in sorted({language_of(path.read_text(encoding="utf-8").splitlines()) for path in LESSONS}):
        rows = read_glossary(glossary_path(language))
        assert rows and all(preferred for _, preferred, _ in rows), language


UKRAINIAN_LESSONS = [path for path in LESSONS if language_of(path.read_text(encoding="utf-8").splitlines()) == "uk"]
STRAIGHT_APOSTROPHE = re.compile(r"(?<=[а-яіїєґ])'(?=[а-яіїєґ])", re.IGNORECASE)


def ukrainian_page_files(lesson):
    """What a Ukrainian page shows of its own: the lesson file (prose and cells), its edition's exercises (starters,
    references and, for the primary, the known-wrong solutions a Parsons problem is built from) and its package's
    Ukrainian catalogue."""
    folder = lesson.parent
    exercises = folder / ("exercises" if lesson.name == "lesson.md" else "exercises.uk")
    return [lesson] + sorted(exercises.rglob("*.py")) + sorted(folder.glob("*/text/uk.json"))


def straight_apostrophes(path, root=ROOT):
    """`file:line: ...` (relative to `root`) for every straight apostrophe between two Ukrainian letters in the file:
    in prose, and in code too, whose comments and strings the page shows as well."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return ["{}:{}: write the apostrophe as ’ (U+2019), not ' (docs/glossary-uk.md)".format(path.relative_to(root), number)
            for number, line in enumerate(lines, 1) if STRAIGHT_APOSTROPHE.search(line)]


@pytest.mark.parametrize("lesson", UKRAINIAN_LESSONS, ids=[path.parent.name + "/" + path.name for path in UKRAINIAN_LESSONS])
def test_ukrainian_pages_write_one_apostrophe(lesson):
    assert [message for path in ukrainian_page_files(lesson) for message in straight_apostrophes(path)] == []


def test_a_straight_apostrophe_on_a_ukrainian_page_is_reported_at_its_line_in_prose_and_in_code(tmp_path):
    lesson = tmp_path / "lesson.md"
    lesson.write_text("---\nlanguage: uk\n---\n\nЗалишкове з'єднання.\n\n```{code-cell} ipython3\n"
                      "print('ваги', \"п'ять\")  # 'x'\n```\n\nДев’ять, don't і `з’єднання`.\n", encoding="utf-8")
    assert straight_apostrophes(lesson, tmp_path) == [
        "lesson.md:5: write the apostrophe as ’ (U+2019), not ' (docs/glossary-uk.md)",
        "lesson.md:8: write the apostrophe as ’ (U+2019), not ' (docs/glossary-uk.md)"]


def test_a_ukrainian_page_s_files_are_its_lesson_file_its_edition_s_exercises_and_its_catalogue(tmp_path):
    for name in ("lesson.md", "lesson.uk.md", "exercises/a/starter.py", "exercises/a/wrong/b.py",
                 "exercises.uk/a/starter.py", "exercises.es/a/starter.py", "pkg/text/uk.json", "pkg/text/es.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    named = [[str(path.relative_to(tmp_path)) for path in ukrainian_page_files(tmp_path / lesson)]
             for lesson in ("lesson.md", "lesson.uk.md")]
    assert named == [["lesson.md", "exercises/a/starter.py", "exercises/a/wrong/b.py", "pkg/text/uk.json"],
                     ["lesson.uk.md", "exercises.uk/a/starter.py", "pkg/text/uk.json"]]


def test_the_course_terms_for_the_mlp_and_the_embedding_table_are_in_every_glossary():
    terms = {language: {preferred: variants for _, preferred, variants in read_glossary(glossary_path(language))}
             for language in ("en", "es", "uk")}
    assert "FFN" in terms["en"]["MLP"] and "FFN" in terms["es"]["MLP"] and "FFN" in terms["uk"]["MLP"]
    assert "word-vector table" in terms["en"]["embedding table"]
    assert "tabla de vectores" in terms["es"]["tabla de embeddings"]
    assert "таблиця векторів" in terms["uk"]["таблиця ембедингів"]
    assert "consulta a la tabla" in terms["es"]["búsqueda en la tabla"]
