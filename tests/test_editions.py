"""A lesson's editions: lesson.<language>.md beside lesson.md, built as its own page, checked against lesson.md."""

import json
import re
import textwrap

import pytest

from coursebuild import cli

PRIMARY = """\
---
title: Una lección
language: es
order: 1
summary: Un resumen.
---

El valor es {glue}`valor`.

```{code-cell} ipython3
:id: cuenta
:tags: [hide-input]
from course.glue import glue
glue("valor", 0.5)
print("hola")
```

```{quiz} single
:id: pregunta
question: ¿Cuánto?
options:
  - text: "1"
  - text: "2"
    correct: true
explanation: Dos.
```
"""

EDITION = """\
---
title: A lesson
language: en
summary: A summary.
---

The value is {glue}`valor`.

```{code-cell} ipython3
:id: cuenta
:tags: [hide-input]
from course.glue import glue
glue("valor", 0.5)
print("hello")
```

```{quiz} single
:id: pregunta
question: How many?
options:
  - text: "1"
  - text: "2"
    correct: true
explanation: Two.
```
"""

NEXT = """\
---
title: Siguiente
language: es
order: 2
summary: Después.
---

Texto.
"""


def write(root, files):
    """Write {relative path: text} under root/lessons."""
    for name, text in files.items():
        path = root / "lessons" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def build(root, capsys):
    status = cli.main(["--lessons", str(root / "lessons"), "--out", str(root / "_site"), "build"])
    return status, capsys.readouterr().err


def page_data(html_text):
    return json.loads(re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html_text, re.S)
                      .group(1))


@pytest.fixture
def built(tmp_path, capsys):
    write(tmp_path, {"01-una/lesson.md": PRIMARY, "01-una/lesson.en.md": EDITION, "02-otra/lesson.md": NEXT,
                     "02-otra/lesson.en.md": NEXT.replace("language: es\norder: 2\n", "language: en\n")
                     .replace("Siguiente", "Next")})
    status, err = build(tmp_path, capsys)
    assert status == 0, err
    return tmp_path / "_site"


def test_an_edition_is_a_page_of_its_own_in_its_language_with_its_own_outputs(built):
    page = (built / "01-una" / "en" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in page and "<h1>A lesson</h1>" in page
    assert "hello" in page and "hola" not in page
    assert '<span class="glued" data-glue="valor">0.50</span>' in page or 'data-glue="valor">0.5<' in page
    assert 'href="../../assets/style.css"' in page and 'src="../../assets/page.js"' in page
    spanish = (built / "01-una" / "index.html").read_text(encoding="utf-8")
    assert 'data-glue="valor">0,5<' in spanish and "hola" in spanish


def test_each_edition_keeps_its_saved_work_under_its_own_key(built):
    spanish = page_data((built / "01-una" / "index.html").read_text(encoding="utf-8"))
    english = page_data((built / "01-una" / "en" / "index.html").read_text(encoding="utf-8"))
    assert spanish["lesson"] == "01-una" and english["lesson"] == "01-una/en"
    index = page_data((built / "index.html").read_text(encoding="utf-8"))
    assert index["lessons"] == ["01-una", "01-una/en", "02-otra", "02-otra/en"]
    assert index["blocks"]["01-una/en"]["quiz"] == ["pregunta"]


def test_every_edition_links_to_the_others_with_hreflang_in_its_own_words(built):
    spanish = (built / "01-una" / "index.html").read_text(encoding="utf-8")
    english = (built / "01-una" / "en" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<nav class="editions" aria-label="Otros idiomas"><p>Esta lección en otros idiomas: '
                     r'<a href="\.\./01-una/en/index.html" hreflang="en" lang="en" rel="alternate">English</a>',
                     spanish)
    assert ('<a href="../../01-una/index.html" hreflang="es" lang="es" rel="alternate">Español</a>' in english
            and 'aria-label="Other languages"' in english)
    for page in (spanish, english):  # the head names every edition, itself included
        assert page.count('<link rel="alternate" hreflang=') == 2


def test_the_path_goes_on_in_the_pages_own_language(built):
    english = (built / "01-una" / "en" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="\.\./\.\./02-otra/en/index.html" lang="en" rel="next">Next</a>', english)
    spanish = (built / "01-una" / "index.html").read_text(encoding="utf-8")
    assert '<a href="../02-otra/index.html" lang="es" rel="next">Siguiente</a>' in spanish


def test_the_index_lists_each_lesson_once_with_its_editions(built):
    index = (built / "index.html").read_text(encoding="utf-8")
    assert index.count('class="lesson-card"') == 2
    assert '<a class="lesson-title" href="01-una/en/index.html">A lesson</a>' in index  # the index's own language
    assert ('Read it in: <a href="01-una/en/index.html" hreflang="en" lang="en">English</a>, '
            '<a href="01-una/index.html" hreflang="es" lang="es">Español</a>') in index
    editions = page_data(index)["editions"]["01-una"]
    assert [(each["language"], each["href"], each["title"]) for each in editions] == [
        ("es", "01-una/index.html", "Una lección"), ("en", "01-una/en/index.html", "A lesson")]


def test_every_card_of_the_index_lists_its_editions_in_one_order_whatever_each_lessons_primary(tmp_path, capsys):
    english_first = NEXT.replace("language: es\n", "language: en\n").replace("Siguiente", "Next")
    write(tmp_path, {"01-una/lesson.md": PRIMARY, "01-una/lesson.en.md": EDITION,  # Spanish first, then English
                     "02-otra/lesson.md": english_first,  # English first, then Spanish
                     "02-otra/lesson.es.md": NEXT.replace("order: 2\n", "")})
    status, err = build(tmp_path, capsys)
    assert status == 0, err
    index = (tmp_path / "_site" / "index.html").read_text(encoding="utf-8")
    cards = re.findall(r'<p class="lesson-language" lang="en">(.*?)</p>', index)
    assert len(cards) == 2
    assert [re.findall(r'hreflang="(\w+)"', card) for card in cards] == [["en", "es"], ["en", "es"]]


@pytest.mark.parametrize("change, line, words", [
    (lambda text: text.replace(":id: cuenta", ":id: recuento"), 9, "block 1 is a code-cell (recuento"),
    (lambda text: text.replace(":tags: [hide-input]\n", ""), 9, "block 1 is a code-cell (cuenta)"),
    (lambda text: text.replace('    correct: true\n', '').replace('  - text: "1"', '  - text: "1"\n    correct: true'),
     16, "block 2 is a quiz"),
    (lambda text: text[:text.index("```{quiz} single")], None, "this edition ends after 1 block(s)"),
    (lambda text: text.replace("The value is {glue}`valor`.", "The value is {glue}`otro`."), 7,
     "{glue}`otro` is quoted here but never in"),
    (lambda text: text.replace("language: en\n", "language: en\norder: 3\n"), 4, "an edition takes 'order'"),
    (lambda text: text.replace("language: en\n", "language: uk\n"), 3, "this is the 'en' edition"),
])
def test_a_drifted_edition_fails_the_build_at_its_line_and_keeps_the_old_site(tmp_path, capsys, change, line, words):
    write(tmp_path, {"01-una/lesson.md": PRIMARY, "01-una/lesson.en.md": EDITION})
    assert build(tmp_path, capsys)[0] == 0
    before = (tmp_path / "_site" / "01-una" / "en" / "index.html").read_text(encoding="utf-8")
    write(tmp_path, {"01-una/lesson.en.md": change(textwrap.dedent(EDITION))})
    status, err = build(tmp_path, capsys)
    assert status != 0
    where = "lesson.en.md:{}: ".format(line) if line else "lesson.en.md: "
    message = next((text for text in err.splitlines() if where in text), "no error at " + where + " in: " + err)
    assert words in message, err
    assert (tmp_path / "_site" / "01-una" / "en" / "index.html").read_text(encoding="utf-8") == before


def test_an_edition_needs_its_lesson_and_a_language_of_the_course(tmp_path, capsys):
    write(tmp_path, {"01-una/lesson.en.md": EDITION, "02-otra/lesson.md": NEXT,
                     "02-otra/lesson.xx.md": NEXT.replace("language: es\norder: 2\n", "language: xx\n")})
    status, err = build(tmp_path, capsys)
    assert status != 0
    assert "01-una/lesson.en.md: an edition needs the lesson it is an edition of; add lesson.md" in err
    assert "02-otra/lesson.xx.md: an edition is named lesson.<language>.md, and 'xx' is not one" in err


def test_an_edition_in_the_lessons_own_language_is_refused(tmp_path, capsys):
    write(tmp_path, {"01-una/lesson.md": PRIMARY, "01-una/lesson.es.md": EDITION.replace("language: en", "language: es")})
    status, err = build(tmp_path, capsys)
    assert status != 0 and "lesson.md is already the 'es' edition" in err
