"""A lesson printed to PDF in Chromium (page.pdf): a handout with text, formulas, each cell's code and output, and
no control; folded answers left out, or gathered at the end when the front matter says `print_answers: appendix`.

The PDF's text is read back with a small reader of the PDF that Chromium (Skia) writes: each page's content
streams, its Type0 fonts and their ToUnicode maps. No PDF library is needed."""

import json
import re
import shutil
import unicodedata
import zlib

import pytest

from support import ROOT, Server, build_site, launch

LESSON = "004-ejercicios-atencion"
# What a learner clicks or reads as a control, in the lesson's language (Spanish): none may reach paper.
CONTROLS = ("cell_show_code", "cell_show_output", "cell_show_answer", "run", "run_all", "stop", "reset", "check",
            "show_solution", "quiz_check")


def pdf_objects(data):
    """{number: body} of every object of a PDF: its dictionary, and its stream's bytes as /Length counts them."""
    objects, end = {}, 0
    for match in re.finditer(rb"(\d+) 0 obj\s*", data):
        if match.start() < end:
            continue  # bytes inside the stream just read
        start = match.end()
        stream_at, end = data.find(b"stream", start), data.find(b"endobj", start)
        if stream_at < 0 or end < stream_at:
            objects[int(match.group(1))] = data[start:end]
            continue
        head = data[start:stream_at]
        begin = stream_at + len(b"stream") + (2 if data[stream_at + 6:stream_at + 8] == b"\r\n" else 1)
        length = re.search(rb"/Length (\d+)(?! \d+ R)", head)  # else an indirect length
        end = begin + int(length.group(1)) if length else data.index(b"endstream", begin)
        objects[int(match.group(1))] = head + b"\nstream\n" + data[begin:end]
    return objects


def stream(body):
    """The decoded stream of an object's body (FlateDecode or plain)."""
    raw = body[body.index(b"\nstream\n") + len(b"\nstream\n"):]
    return zlib.decompress(raw) if b"/FlateDecode" in body else raw


def to_unicode(cmap):
    """{glyph code: text} of a ToUnicode CMap (bfchar and bfrange entries)."""
    table = {}
    text = cmap.decode("latin-1")
    for block in re.findall(r"beginbfchar(.*?)endbfchar", text, re.S):
        for source, target in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            table[int(source, 16)] = bytes.fromhex(target).decode("utf-16-be")
    for block in re.findall(r"beginbfrange(.*?)endbfrange", text, re.S):
        for start, end, target in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            first = bytes.fromhex(target).decode("utf-16-be")  # a range counts up its last character
            for offset, code in enumerate(range(int(start, 16), int(end, 16) + 1)):
                table[code] = first[:-1] + chr(ord(first[-1]) + offset)
    return table


def pdf_text(data):
    """(the text of every page, joined by newlines between text objects; the base fonts used)."""
    objects = pdf_objects(data)
    ref = lambda name, body: int(re.search(rb"/" + name + rb" (\d+) 0 R", body).group(1))  # noqa: E731
    lines, fonts = [], set()
    for body in objects.values():
        if not re.search(rb"/Type /Page\b(?!s)", body):
            continue
        resources = dict((name, int(number)) for name, number in re.findall(rb"/(F\d+) (\d+) 0 R", body))
        maps = {}
        for name, number in resources.items():
            font = objects[number]
            fonts.add(re.search(rb"/BaseFont /(\S+)", font).group(1).decode().split("+")[-1])
            maps[name] = to_unicode(stream(objects[ref(b"ToUnicode", font)])) if b"/ToUnicode" in font else {}
        content = stream(objects[ref(b"Contents", body)]).decode("latin-1")
        current = {}
        for block in re.findall(r"BT(.*?)ET", content, re.S):
            line = ""
            for font, shown in re.findall(r"/(F\d+) [\d.]+ Tf|(\[.*?\]\s*TJ|<[0-9A-Fa-f]*>\s*Tj)", block, re.S):
                if font:
                    current = maps.get(font.encode(), {})
                    continue
                for hexes in re.findall(r"<([0-9A-Fa-f]*)>", shown):
                    line += "".join(current.get(int(hexes[i:i + 4], 16), "") for i in range(0, len(hexes), 4))
            lines.append(line)
    return "\n".join(lines), fonts


def printed(browser, server, path):
    """The PDF of a page as Chromium prints it, once its fonts have loaded."""
    page = browser.new_page()
    page.goto(server.url(path))
    page.wait_for_function("document.fonts.status === 'loaded' && document.body.dataset.runtime === 'idle'")
    data = page.pdf(format="A4")
    page.close()
    return data


@pytest.fixture(scope="module")
def print_sites(tmp_path_factory):
    """Lesson 004 as it is (print_answers left to its default, folded) and with `print_answers: appendix`."""
    servers = {}
    for mode in ("folded", "appendix"):
        lessons = tmp_path_factory.mktemp("print-" + mode)
        folder = lessons / LESSON
        shutil.copytree(str(ROOT / "lessons" / LESSON), str(folder), ignore=shutil.ignore_patterns("__pycache__"))
        text = (folder / "lesson.md").read_text(encoding="utf-8")
        if mode == "appendix":
            text = text.replace("\n---\n", "\nprint_answers: appendix\n---\n", 1)
        (folder / "lesson.md").write_text(text, encoding="utf-8")
        servers[mode] = Server(build_site(lessons, tmp_path_factory.mktemp("print-site-" + mode) / "_site"))
    yield servers
    for server in servers.values():
        server.close()


@pytest.fixture(scope="module")
def chromium():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


def screen_text(browser, server, selector):
    """The text of every element matching `selector` on the page as a screen shows it, in page order."""
    page = browser.new_page()
    page.goto(server.url(LESSON + "/index.html"))
    texts = page.eval_on_selector_all(selector, "(all) => all.map((e) => e.textContent.replace(/\\s+/g, ' ').trim())")
    page.close()
    return texts


def prose_text(browser, server):
    """The lesson's text a screen shows, without its controls (buttons, disclosure summaries, the runtime bar)."""
    page = browser.new_page()
    page.goto(server.url(LESSON + "/index.html"))
    text = page.evaluate("""() => {
      const walker = document.createTreeWalker(document.querySelector("article.lesson"), NodeFilter.SHOW_TEXT);
      let text = "";
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (parent.closest("button, summary, .runtime-bar") || !parent.checkVisibility()) continue;
        text += node.textContent;
      }
      return text;
    }""")
    page.close()
    return text


def squeeze(text):
    """`text` without white space, its math italic letters (as the PDF holds a formula's) as plain ones."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def test_a_printed_lesson_has_its_text_formulas_code_and_outputs_and_no_control(chromium, print_sites):
    server = print_sites["folded"]
    text, fonts = pdf_text(printed(chromium, server, LESSON + "/index.html"))
    flat = squeeze(text)
    title = screen_text(chromium, server, "article.lesson > h1")[0]
    assert squeeze(title) in flat
    paragraphs = screen_text(chromium, server, "article.lesson > p")
    assert squeeze(paragraphs[0][:60]) in flat
    assert "NotoSansMath-Regular" in fonts  # the formulas, in the shipped math font
    code = screen_text(chromium, server, ".cell:not([hidden]) .cell-code code")
    outputs = screen_text(chromium, server, ".cell:not([hidden]) > .cell-output:not([hidden]) pre, "
                                            ".cell:not([hidden]) > [data-fold=output] .cell-output:not([hidden]) pre")
    assert code and all(squeeze(part)[:40] in flat for part in code)
    assert outputs and [part for part in outputs if squeeze(part)[:40] not in flat] == []  # hide-output's too
    strings = json.loads((ROOT / "site" / "i18n" / "es.json").read_text(encoding="utf-8"))
    prose = squeeze(prose_text(chromium, server))
    for label in [strings[name] for name in CONTROLS] + [strings["hint_button"].split("{")[0]]:
        # The prose may name a control (to say what it does); the control itself is not on paper.
        assert flat.count(squeeze(label)) == prose.count(squeeze(label)), label
    assert "La respuesta está plegada: la página impresa no la incluye." in text


def test_folded_answers_stay_folded_on_paper_unless_the_author_asks_for_an_appendix(chromium, print_sites):
    folded = squeeze(pdf_text(printed(chromium, print_sites["folded"], LESSON + "/index.html"))[0])
    appendix_text = pdf_text(printed(chromium, print_sites["appendix"], LESSON + "/index.html"))[0]
    appendix = squeeze(appendix_text)
    answers = screen_text(chromium, print_sites["folded"], "details.answer > :not(summary)")
    assert answers
    for answer in answers:
        assert squeeze(answer)[:50] not in folded
        assert squeeze(answer)[:50] in appendix
    assert "Respuestas" in appendix_text and "véase la respuesta 1 al final" in appendix_text
    # On screen the appendix is not there: it is for paper only.
    assert screen_text(chromium, print_sites["appendix"], ".print-appendix:not([hidden])") == []


@pytest.fixture(scope="module")
def explorable_site(tmp_path_factory):
    """Lesson 000, whose explorable compares rule heads."""
    lessons = tmp_path_factory.mktemp("print-explorable")
    (lessons / "000-varias-cabezas").symlink_to(ROOT / "lessons" / "000-varias-cabezas")
    server = Server(build_site(lessons, tmp_path_factory.mktemp("print-explorable-site") / "_site"))
    yield server
    server.close()


def test_an_explorable_prints_the_view_the_learner_chose(chromium, explorable_site):
    import html

    from varias_cabezas.explorables.rule_heads import WORDS

    from course import numbers
    from course.explorables import engine
    page = chromium.new_page()
    page.goto(explorable_site.url("000-varias-cabezas/index.html"))
    figure = page.locator("#explorable-1")
    figure.get_by_role("button", name="Una sola cabeza · las cuatro reglas sumadas").click()
    figure.get_by_label("persiguen", exact=True).check()
    page.wait_for_function("document.querySelector('#explorable-1').dataset.key === '4-{}'".format(
        WORDS.index("persiguen")))
    text = squeeze(pdf_text(page.pdf(format="A4"))[0])
    page.close()
    numbers.set_language("es")
    module = engine.load("varias_cabezas.explorables.rule_heads")
    key = (4, WORDS.index("persiguen"))
    lines = re.findall(r'<div class="xp-line">(.*?)</div>', module.draw(module.compute(key), key, "es")[1])
    assert lines and all(squeeze(html.unescape(line)) in text for line in lines)
    other = (4, WORDS.index("gatos"))  # the same heads on another word: a view the page holds, hidden
    others = re.findall(r'<div class="xp-line">(.*?)</div>', module.draw(module.compute(other), other, "es")[1])
    assert [line for line in others if line not in lines and squeeze(html.unescape(line)) in text] == []
    assert set(others) - set(lines)


def test_print_answers_takes_folded_or_appendix_and_names_its_line_otherwise(tmp_path):
    from coursebuild.lesson import read_lesson
    folder = tmp_path / "01-hoja"
    folder.mkdir()
    path = folder / "lesson.md"
    path.write_text("---\ntitle: Hoja\nlanguage: es\norder: 1\nsummary: Una hoja.\nprint_answers: sideways\n---\n\n"
                    "Texto.\n", encoding="utf-8")
    lesson, errors = read_lesson(path)
    assert [(error.line, "print_answers must be folded or appendix" in error.message) for error in errors] == [(6, True)]
    assert lesson.print_answers == "folded"
    path.write_text(path.read_text(encoding="utf-8").replace("sideways", "appendix"), encoding="utf-8")
    lesson, errors = read_lesson(path)
    assert errors == [] and lesson.print_answers == "appendix"
