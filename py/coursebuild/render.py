"""HTML for lesson pages and the index: static, readable with no JavaScript."""

import html
import json
import re

from course.numbers import number

from . import glue_role
from .highlight import highlight

# The page compiles no WebAssembly (the worker does, under the policy sw.js gives it) and has no inline
# style: the editor's styles go into a constructed style sheet (site/editor/editor.js).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; "
       "img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self'; "
       "object-src 'none'; base-uri 'self'; form-action 'none'")


class RenderContext:
    """What blocks see while rendering: the lesson, its UI strings, its build-time outputs and glued values."""

    def __init__(self, lesson, strings, outputs, glued, markdown):
        self.lesson = lesson
        self.strings = strings
        self.outputs = outputs
        self.glued = glued
        self.markdown = markdown
        self.appendix = []  # (title, HTML) of each folded answer, for a printed page's end (print_answers: appendix)

    def render_tokens(self, tokens):
        """HTML of parsed Markdown, with this page's blocks, roles and values."""
        return self.markdown.renderer.render(tokens, self.markdown.options, {"context": self})

    def render_body(self, body):
        """HTML of a block's body (blocks.base.Body), rendered like the rest of the page."""
        return self.render_tokens(body.tokens)

    def folded_answer(self, title, markup):
        """What a folded answer shows on paper instead of itself: that it is left out, or where the appendix
        holds it (then `markup` goes there, under `title`)."""
        if self.lesson.print_answers != "appendix":
            return '<p class="print-only print-note">{}</p>\n'.format(html.escape(self.strings["print_answer_left_out"]))
        self.appendix.append((title, markup))
        return '<p class="print-only print-note">{}</p>\n'.format(
            html.escape(self.strings["print_answer_at_end"].format(n=len(self.appendix))))


def print_appendix(context):
    """The folded answers again, numbered, for a printed page only (hidden on screen); "" when there are none."""
    if not context.appendix:
        return ""
    items = "".join('<section class="print-answer"><h3>{n}. {title}</h3>\n{markup}</section>\n'.format(
        n=number, title=title, markup=markup) for number, (title, markup) in enumerate(context.appendix, 1))
    return '<section class="print-appendix print-only" hidden>\n<h2>{}</h2>\n{}</section>\n'.format(
        html.escape(context.strings["print_answers"]), items)


def add_rules(markdown):
    """Register the lesson's render rules once; each reads the page's RenderContext from `env`."""
    for name, rule in (("fence", _fence), ("colon_fence", _colon_fence), ("myst_line_comment", _nothing),
                       ("front_matter", _nothing), ("myst_role", _role)):
        markdown.add_render_rule(name, rule)


def _fence(renderer, tokens, index, options, env):
    """A directive's block, or highlighted code for an ordinary fence."""
    token = tokens[index]
    block = token.meta.get("block")
    if block is not None:
        return block.render(env["context"])
    if token.info.strip().startswith("{"):
        return ""  # an invalid directive, already reported
    return _code_block(token)


def _colon_fence(renderer, tokens, index, options, env):
    """A directive's block; a colon fence is never anything else."""
    block = tokens[index].meta.get("block")
    return block.render(env["context"]) if block is not None else ""


def _nothing(renderer, tokens, index, options, env):
    """Author comments and the front matter do not reach the page."""
    return ""


def _role(renderer, tokens, index, options, env):
    """A {glue} role, filled in with the value the build recorded."""
    context = env["context"]
    return glue_role.render(tokens[index], context.glued, context.lesson.language)


def lesson_body(lesson, context):
    """The lesson's Markdown rendered, each directive replaced by its block's HTML."""
    return keep_punctuation_with_math(context.render_tokens(lesson.tokens))


INLINE_MATH_THEN_PUNCTUATION = re.compile(  # one formula only: the body may not run past its own </math>
    r'(<span class="math inline"><math [^>]*display="inline"[^>]*>(?:(?!</math>).)*</math></span>)([.,;:!?)»]+)',
    re.S)


def keep_punctuation_with_math(html_text):
    """Keep a formula and the punctuation right after it on one line (". Y" must not start a line)."""
    return INLINE_MATH_THEN_PUNCTUATION.sub(r'<span class="math-nowrap">\1\2</span>', html_text)


def _code_block(token):
    """An ordinary fenced code block, highlighted at build time."""
    language = token.info.strip().split()[0] if token.info.strip() else "text"
    # a long line scrolls the block sideways, so it takes the focus to be scrolled by keyboard
    return '<pre class="code highlight" tabindex="0"><code>{}</code></pre>\n'.format(highlight(token.content, language))


def page(lang, title, body, strings, root, data=None, extra_class="", head="", home="index.html"):
    """A whole HTML page; `root` is the relative path back to the site's top ("", "../", "../../"), `head`
    any further lines of its head (an edition's alternates), and `home` the course index its header links to,
    from the site's top (the index in the page's language)."""
    data_island = ""
    if data is not None:
        # Every "<" escaped, so nothing in the data can end the script element or start another.
        text = json.dumps(data, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
        data_island = '<script type="application/json" id="page-data">{}</script>\n'.format(text)
    return (
        "<!doctype html>\n"
        '<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
        '<meta name="color-scheme" content="light dark">\n<link rel="icon" href="data:,">\n'
        "<title>{title}</title>\n"
        '<link rel="stylesheet" href="{root}assets/style.css">\n'
        '<script defer src="{root}assets/page.js"></script>\n'
        "{head}</head>\n<body class=\"{cls}\">\n"
        '<a class="skip-link" href="#content">{skip}</a>\n'
        '<header class="site-header"><a href="{root}{home}">{course}</a></header>\n'
        '<main id="content">\n{body}</main>\n'
        "{data}"
        "</body>\n</html>\n"
    ).format(lang=lang, csp=CSP, title=html.escape(title), root=root, home=home, cls=extra_class,
             skip=html.escape(strings["skip_to_content"]), course=html.escape(strings["course_title"]),
             body=body, data=data_island, head=head)


def lesson_page(lesson, markdown, strings, outputs, glued, build, library, runtime_manifest, path="", editions=("", ""),
                home="index.html"):
    """The page of one lesson: prose, cells with build-time outputs, and the runtime bar.

    `build` names this build's front end (lazily loaded files carry it), `library` lists the files under
    assets/ of the course library and of the lesson's own package, `runtime_manifest` says what the
    worker loads, `path` is the lesson's place in the course (path_nav), `editions` the links to the
    lesson's other editions, for the page and for its head (edition_links), and `home` the course index in the
    lesson's language (index_path).
    """
    context = RenderContext(lesson, strings, outputs, glued, markdown)
    body = lesson_body(lesson, context)
    header = '<article class="lesson" data-lesson="{key}">\n<h1>{title}</h1>\n{editions}'.format(
        key=html.escape(lesson.key), title=html.escape(lesson.meta["title"]), editions=editions[0])
    bar = ""
    if lesson.cells or lesson.exercises:
        bar = (
            '<div class="runtime-bar" hidden>'
            '<span class="runtime-status" role="status" aria-live="polite">{idle}</span>'
            '<progress class="runtime-progress" hidden max="1" value="0"></progress>'
            '<button type="button" class="button run-all" data-action="run-all">{run_all}</button>'
            '<button type="button" class="button stop" data-action="stop" disabled>{stop}</button>'
            "</div>\n"
        ).format(idle=html.escape(strings["runtime_idle"].format(size=download_size(runtime_manifest, lesson.language))),
                 run_all=html.escape(strings["run_all"]),
                 stop=html.escape(strings["stop"]))
    data = {
        "build": build,
        "kind": "lesson",
        "lesson": lesson.key,
        "language": lesson.language,
        "libraries": library,
        "cells": [cell.data() for cell in lesson.cells],
        "exercises": [exercise.data() for exercise in lesson.exercises],
        "quizzes": [quiz.data() for quiz in lesson.quizzes],
        "self_checks": [self_check.data() for self_check in lesson.self_checks],
        "explorables": [explorable.data() for explorable in lesson.explorables],
        "runtime": runtime_manifest,
        "strings": strings,
    }
    full = header + body + print_appendix(context) + path + "</article>\n" + bar
    return page(lesson.language, lesson.meta["title"], full, strings, lesson.root, data, "lesson-page", editions[1],
                home)


def edition_links(lesson, strings_by_lang):
    """(the page's switch to the lesson's other editions, its head's alternate links): each edition named in its
    own language, as a reader who cannot read this page looks for it, under a label in the page's language."""
    editions = (lesson.primary or lesson).editions
    if len(editions) < 2:
        return "", ""
    strings = strings_by_lang[lesson.language]
    others = ['<a href="{href}" hreflang="{lang}" lang="{lang}" rel="alternate">{name}</a>'.format(
        href=html.escape(link_to(lesson, other)), lang=other.language,
        name=html.escape(strings_by_lang[other.language]["language_name"])) for other in editions if other is not lesson]
    switch = '<nav class="editions" aria-label="{label}"><p>{intro} {links}</p></nav>\n'.format(
        label=html.escape(strings["editions_label"]), intro=html.escape(strings["editions_intro"]),
        links=" · ".join(others))
    head = "".join('<link rel="alternate" hreflang="{lang}" href="{href}">\n'.format(
        lang=other.language, href=html.escape(link_to(lesson, other))) for other in editions)
    return switch, head


def link_to(page, other):
    """The relative URL from one page of the course to another lesson page."""
    return page.root + other.page_dir + "index.html"


def edition_in(lesson, language):
    """The lesson's edition in `language`, or None."""
    return next((edition for edition in lesson.editions if edition.language == language), None)


def path_nav(lesson, lessons, strings_by_lang):
    """Where a page sits on the course's path: the previous and next lesson that can be read in its language
    (rel prev/next), and, where the course's own order goes through a lesson that cannot, that lesson."""
    strings = strings_by_lang[lesson.language]
    place = lessons.index(lesson.primary or lesson)
    same = [(number, edition_in(other, lesson.language)) for number, other in enumerate(lessons, 1)
            if edition_in(other, lesson.language) is not None]
    mine = [edition for _, edition in same].index(lesson)
    lines = []
    for rel, neighbour, step in (("prev", same[mine - 1] if mine else None, -1),
                                 ("next", same[mine + 1] if mine + 1 < len(same) else None, 1)):
        beside = lessons[place + step] if 0 <= place + step < len(lessons) else None
        if beside is not None and edition_in(beside, lesson.language) is None:  # every edition it can be read in
            template = strings["path_elsewhere_" + rel].format(n=place + step + 1, language=", ".join(
                strings_by_lang[edition.language]["language_name"] for edition in beside.editions))
            lines.append('<p class="path-elsewhere">{} {}</p>'.format(html.escape(template), " · ".join(
                _lesson_link(lesson, edition) for edition in beside.editions)))
        if neighbour is not None:
            lines.append('<p class="path-{rel}">{label} {link}</p>'.format(
                rel=rel, label=html.escape(strings["path_" + rel].format(n=neighbour[0])),
                link=_lesson_link(lesson, neighbour[1], rel)))
    if place + 1 == len(lessons):
        lines.append('<p class="path-end">{}</p>'.format(html.escape(strings["path_last"])))
    return '<nav class="lesson-path" aria-label="{label}">\n<p class="path-place">{place}</p>\n{lines}\n</nav>\n'.format(
        label=html.escape(strings["path_label"]),
        place=html.escape(strings["path_place"].format(n=place + 1, total=len(lessons))), lines="\n".join(lines))


def _lesson_link(page, lesson, rel=""):
    """A link from one lesson page to another, in the linked lesson's language."""
    return '<a href="{href}" lang="{lang}"{rel}>{title}</a>'.format(
        href=html.escape(link_to(page, lesson)), lang=lesson.language, rel=' rel="{}"'.format(rel) if rel else "",
        title=html.escape(lesson.meta["title"]))


def download_size(runtime_manifest, language):
    """The runtime's size as the page states it: its files' bytes as stored, the measure the progress bar
    counts (the worker reads each file's decompressed body), in decimal megabytes as the bar writes them."""
    megabytes = sum(file["size"] for file in runtime_manifest["files"]) / 1e6
    return number(megabytes, ".1f", language) + " MB"


def index_path(language, default="en"):
    """Where the course index in `language` lives, from the site's top: the default one at the top, the others in
    a folder named by their language."""
    return "index.html" if language == default else language + "/index.html"


def index_languages(lessons, default="en"):
    """The languages the course has an index in: the default one first, then every language an edition is
    written in."""
    return [default] + sorted({edition.language for lesson in lessons for edition in lesson.editions} - {default})


def index_page(lessons, strings_by_lang, lang="en", default="en"):
    """The course index in `lang`: every lesson once, in reading order, numbered, the first marked "start here",
    each with its title and summary in `lang` where it has that edition (else in its own language, and said so), a
    link to each of its editions, and a place for the learner's progress in it (course-progress.js fills it from
    the saved work). The default index (at the site's top) also opens each lesson in the reader's browser
    language (editions.js); the data lists every edition for that."""
    strings = strings_by_lang[lang]
    root = "" if lang == default else "../"
    order = index_languages(lessons, default)  # every card lists its editions in this one order
    items = []
    for position, lesson in enumerate(lessons, 1):
        own = edition_in(lesson, lang)
        shown = own or lesson
        start = '<p class="start-here">{}</p>'.format(html.escape(strings["start_here"])) if position == 1 else ""
        elsewhere = "" if own is not None else ' <span class="lesson-elsewhere">({})</span>'.format(html.escape(
            strings["index_elsewhere"].format(language=strings_by_lang[shown.language]["language_name"])))
        links = ", ".join('<a href="{href}" hreflang="{lang}" lang="{lang}">{name}</a>'.format(
            href=html.escape(root + edition.page_dir + "index.html"), lang=edition.language,
            name=html.escape(strings_by_lang[edition.language]["language_name"]))
            for edition in sorted(lesson.editions, key=lambda edition: order.index(edition.language)))
        items.append(
            '<li class="lesson-card" data-lesson="{slug}" data-page="{key}"><div class="lesson-text" lang="{lang}">'
            '{start}<h2><span class="lesson-number" lang="{ui}">{number}</span> <a class="lesson-title" href="{href}">'
            '{title}</a>{elsewhere}</h2><p class="lesson-summary">{summary}</p></div>'
            '<p class="lesson-language" lang="{ui}">{label}: {links}</p>'
            '<p class="lesson-progress" lang="{ui}" hidden></p></li>'.format(
                slug=html.escape(lesson.slug), key=html.escape(shown.key), lang=shown.language, ui=lang, start=start,
                number=html.escape(strings["lesson_number"].format(n=position)), elsewhere=elsewhere,
                href=html.escape(root + shown.page_dir + "index.html"), title=html.escape(shown.meta["title"]),
                label=html.escape(strings["lesson_editions"]), links=links,
                summary=html.escape(shown.meta["summary"])))
    others = " · ".join('<a href="{href}" hreflang="{code}" lang="{code}">{name}</a>'.format(
        href=html.escape(root + index_path(code, default)), code=code,
        name=html.escape(strings_by_lang[code]["language_name"]))
        for code in index_languages(lessons, default) if code != lang)
    body = ('<h1>{}</h1>\n<p class="course-summary">{}</p>\n<p class="index-languages">{}: {}</p>\n'
            '<p class="lesson-resume" hidden></p>\n<ol class="lesson-list">\n{}\n</ol>\n').format(
        html.escape(strings["course_title"]), html.escape(strings["course_summary"]),
        html.escape(strings["index_other_languages"]), others, "\n".join(items))
    e = {key: html.escape(value) for key, value in strings.items()}
    body += (
        '<section class="offline" aria-labelledby="offline-title"><h2 id="offline-title">{offline_title}</h2>'
        '<p class="offline-status" role="status" aria-live="polite">{offline_intro}</p>'
        '<progress class="offline-progress" hidden max="1" value="0"></progress>'
        '<p class="offline-actions" hidden><button type="button" class="button run" data-action="offline-save">'
        '{offline_save}</button> <button type="button" class="button" data-action="offline-free">{offline_free}'
        "</button></p></section>\n"
        '<section class="work" aria-labelledby="work-title"><h2 id="work-title">{work_title}</h2>'
        "<p>{work_intro}</p>"
        '<p class="work-actions" hidden><button type="button" class="button" data-action="export">{export_button}'
        '</button> <label class="button import-label">{import_label} <input type="file" accept="application/json,.json">'
        '</label></p><p class="work-status" role="status" aria-live="polite"></p></section>\n'
    ).format(**e)
    every = [edition for lesson in lessons for edition in lesson.editions]
    data = {"kind": "index", "language": lang, "root": root, "preferBrowser": lang == default,
            "lessons": [page.key for page in every],
            "blocks": {page.key: block_keys(page) for page in every},
            "shapes": {page.key: block_shapes(page) for page in every},
            "titles": {page.key: page.meta["title"] for page in every},
            "hrefs": {page.key: root + page.page_dir + "index.html" for page in every},
            "editions": {lesson.slug: [{"language": edition.language, "key": edition.key,
                                        "languageName": strings_by_lang[edition.language]["language_name"],
                                        "href": root + edition.page_dir + "index.html",
                                        "title": edition.meta["title"], "summary": edition.meta["summary"]}
                                       for edition in lesson.editions] for lesson in lessons},
            "strings": strings}
    head = "".join('<link rel="alternate" hreflang="{code}" href="{href}">\n'.format(
        code=code, href=html.escape(root + index_path(code, default)))
        for code in index_languages(lessons, default) if code != lang)
    return page(lang, strings["course_title"], body, strings, root, data, "index-page", head,
                index_path(lang, default))


def block_keys(lesson):
    """The storage keys of a lesson's blocks by kind, so the index can check an import against them."""
    return {"cell": [cell.key for cell in lesson.cells], "quiz": [quiz.key for quiz in lesson.quizzes],
            "exercise": [exercise.id for exercise in lesson.exercises]}


def block_shapes(lesson):
    """What the index checks an imported answer against, by quiz key: the quiz's kind and option ids, never its
    answer (cells and exercises take any saved work of their kind's shape)."""
    return {"quiz": {quiz.key: quiz.shape() for quiz in lesson.quizzes}}



