"""Read a lesson source: front matter, Markdown tokens and the directive blocks in them.

A lesson is MyST-style Markdown (CommonMark through markdown-it-py) whose code
cells follow jupytext's MyST notebook format, so it also opens in Jupyter:

    ```{code-cell} ipython3
    :tags: [raises-exception]
    print(1 / 0)
    ```

Directives are fences (```{name}) or colon fences (:::{name}); each name is
looked up in the block table of `coursebuild.blocks`.

A lesson is one folder, lessons/<number>-<name>/: lesson.md, exercises/, and the lesson's own
Python package <name> (dashes as underscores, e.g. lessons/003-odna-holova/odna_holova/) with
its explorables/, checkers/ and whatever else only this lesson uses. The build, the runner
and the page's worker put the lesson's folder on the path for that lesson alone.

A lesson may have editions in other languages: lesson.<language>.md beside lesson.md (say
lesson.en.md), with its starters and references under exercises.<language>/ (the known-wrong
solutions are lesson.md's, see blocks/exercise.py). An edition shares the
lesson's package, checkers, order and packages; it has the same blocks in the same order
(check_editions), and its page is <folder>/<language>/.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from markdown_it import MarkdownIt
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin
from packaging.utils import canonicalize_name

from . import blocks, i18n, mathml, packages, render, yaml_text
from .blocks.directive import read_directive
from .errors import Collector, LessonError, closest, display_path, read_source

REQUIRED_META = ("title", "language", "order", "summary")
EDITION_META = ("title", "language", "summary")  # an edition takes the rest from lesson.md
SHARED_META = ("order", "packages", "print_answers")  # what only lesson.md says, for all its editions
JUPYTER_META = ("jupytext", "kernelspec")  # what Jupyter reads, allowed in every edition
PRINT_ANSWERS = ("folded", "appendix")  # where a printed page puts its folded answers (the first is the default)
PRIMARY_FILE = "lesson.md"
EDITION_FILE = re.compile(r"lesson\.([^./]+)\.md")

URL_SPECIAL = '?#:%\\/"<>'  # characters a URL path gives a meaning, or a browser rewrites


class BlocksOfOneKind:
    """A lesson's blocks of one kind, in page order, read as an attribute: those whose `flag` (is_cell, is_quiz, ...)
    is true."""

    def __init__(self, flag):
        self.flag = flag

    def __get__(self, lesson, owner=None):
        if lesson is None:
            return self
        return [block for block in lesson.blocks if getattr(block, self.flag, False)]


@dataclass(eq=False)  # a lesson is itself: two parsed files are never "equal" lessons
class Lesson:
    """A parsed lesson: where it came from, its metadata, tokens and blocks."""

    slug: str
    path: Path
    source: str
    meta: dict
    tokens: list
    folder: Path = None  # the lesson's folder, absolute: exercise files are found from here
    blocks: list = field(default_factory=list)
    bodies: list = field(default_factory=list)  # every block's parsed Markdown (blocks.base.Body)
    edition: str = None  # the language in the file name of lesson.<language>.md; None for lesson.md
    primary: object = None  # for an edition, the Lesson of lesson.md
    editions: list = field(default_factory=list)  # for lesson.md, itself then its editions (site.load_lessons)

    @property
    def language(self):
        return self.meta.get("language", "en")

    @property
    def key(self):
        """The page's own name: the folder for lesson.md, '<folder>/<language>' for an edition. Saved work and
        build outputs are kept under it, so each edition keeps its own."""
        return self.slug if self.edition is None else "{}/{}".format(self.slug, self.edition)

    @property
    def page_dir(self):
        """The page's folder in the site, as a relative URL path ending in '/'."""
        return self.key + "/"

    @property
    def root(self):
        """The relative path from the page back to the site's top."""
        return "../" * self.page_dir.count("/")

    @property
    def order(self):
        """The lesson's place in the course (its lesson.md's `order:`), 0 when it has none."""
        order = (self.primary or self).meta.get("order")
        return order if isinstance(order, int) and not isinstance(order, bool) else 0

    @property
    def package(self):
        """The name of the lesson's own Python package (it may not exist): the folder's name without its order."""
        return package_name(self.slug)

    @property
    def package_dir(self):
        """The lesson's package folder, or None when the lesson has no code of its own."""
        folder = self.folder / self.package if self.folder is not None else None
        return folder if folder is not None and (folder / "__init__.py").is_file() else None

    @property
    def print_answers(self):
        """Where the printed page puts the folded answers: "folded" (left out) or "appendix" (at the end)."""
        value = (self.primary or self).meta.get("print_answers")
        return value if value in PRINT_ANSWERS else PRINT_ANSWERS[0]

    @property
    def packages(self):
        """The lesson's `packages:` pins ('name==version'), as lesson.md's front matter lists them."""
        entries = (self.primary or self).meta.get("packages") or []
        return [entry.strip() for entry in entries if isinstance(entry, str)] if isinstance(entries, list) else []

    def token_lists(self):
        """The lesson's tokens, then each block body's: every place a role or formula can sit."""
        return [self.tokens] + [body.tokens for body in self.bodies]

    cells = BlocksOfOneKind("is_cell")
    exercises = BlocksOfOneKind("is_exercise")
    explorables = BlocksOfOneKind("is_explorable")
    quizzes = BlocksOfOneKind("is_quiz")
    self_checks = BlocksOfOneKind("is_self_check")


def markdown():
    """The Markdown parser every lesson and directive body goes through."""
    md = MarkdownIt("commonmark", {"html": False, "typographer": False})
    md.use(front_matter_plugin).use(colon_fence_plugin).use(myst_block_plugin).use(myst_role_plugin)
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False, renderer=mathml.render)
    md.enable("table")
    render.add_rules(md)
    return md


def package_name(slug):
    """'003-odna-holova' -> 'odna_holova': the lesson package's name, unique because folder names are."""
    return re.sub(r"^[0-9]+[-_]", "", slug).replace("-", "_")


def edition_of(path):
    """The language of an edition's file name (lesson.en.md -> 'en'); None for lesson.md."""
    match = EDITION_FILE.fullmatch(Path(path).name)
    return match.group(1) if match else None


def read_lesson(path):
    """Parse lessons/<slug>/lesson.md, or an edition lesson.<language>.md; return (Lesson, [LessonError])."""
    relative = display_path(path)
    errors = Collector(relative)
    edition = edition_of(path)
    check_slug(path.parent.name, errors)
    source = read_source(path, errors)
    if source is None:
        return Lesson(slug=path.parent.name, path=relative, source="", meta={}, tokens=[],
                      edition=edition), errors.errors
    md = markdown()
    tokens = md.parse(source)
    meta = read_front_matter(tokens, errors, edition)
    lesson = Lesson(slug=path.parent.name, path=relative, source=source, meta=meta, tokens=tokens,
                    folder=Path(path).resolve().parent, edition=edition)
    check_fences_closed(source, tokens, errors)
    mathml.check(tokens, errors)
    context = blocks.ParseContext(lesson=lesson, errors=errors, markdown=md, known=tuple(blocks.BLOCKS))
    for token in tokens:
        directive = read_directive(token, errors)
        if directive is None:
            blocks.check_fence(token, errors)
        else:
            block = blocks.parse(directive, context)
            if block is not None:
                token.meta["block"] = block
                lesson.blocks.append(block)
    blocks.resolve(lesson, errors)
    return lesson, errors.errors


def read_front_matter(tokens, errors, edition=None):
    """Validate the YAML front matter (of an edition, when `edition` names its language) and return it as a dict."""
    required = REQUIRED_META if edition is None else EDITION_META
    if not tokens or tokens[0].type != "front_matter":
        errors.error(1, "the lesson has no front matter; start the file with '---', "
                        "the keys {}, and '---'".format(", ".join(required)))
        return {}
    token = tokens[0]
    try:
        meta = yaml_text.load(token.content) or {}
    except RecursionError:  # PyYAML composes nested values recursively: thousands of '[' or '- ' exhaust the stack
        errors.error(_deepest_line(token), "the front matter is nested too deeply for YAML to read; write one "
                                           "'key: value' per line, with lists and mappings a few levels deep")
        return {}
    except yaml.YAMLError as error:
        mark = getattr(error, "context_mark", None) or getattr(error, "problem_mark", None)
        line = 2 + mark.line if mark is not None else 1
        problem = getattr(error, "problem", None) or str(error)
        errors.error(line, "the front matter is not valid YAML ({}); "
                           "write one 'key: value' per line".format(problem))
        return {}
    if not isinstance(meta, dict):
        errors.error(1, "the front matter must be a mapping of 'key: value' lines")
        return {}
    for key in required:
        if key not in meta:
            errors.error(1, "the front matter lacks '{}'; add a '{}:' line".format(key, key))
    _check_unknown_keys(token, meta, edition, errors)
    if edition is not None:
        _check_edition_meta(token, meta, edition, errors)
    if "language" in meta and meta["language"] not in i18n.languages():
        errors.error(_key_line(token, "language"), "language '{}' is not supported (use one of: {})".format(
            meta["language"], ", ".join(i18n.languages())))
    if "order" in meta and (not isinstance(meta["order"], int) or isinstance(meta["order"], bool)):
        errors.error(_key_line(token, "order"), "order must be a whole number, such as 'order: 3'")
    for key in ("title", "summary"):
        if key in meta and not isinstance(meta[key], str):
            errors.error(_key_line(token, key), "{} must be text".format(key))
    if "packages" in meta:
        _check_packages_entries(token, meta["packages"], errors)
    if "print_answers" in meta and meta["print_answers"] not in PRINT_ANSWERS:
        errors.error(_key_line(token, "print_answers"), "print_answers must be {} (where a printed page puts the "
                                                        "folded answers)".format(" or ".join(PRINT_ANSWERS)))
    return meta


def _check_unknown_keys(token, meta, edition, errors):
    """Errors for front-matter keys the build does not read (a misspelt optional key would be lost without a word),
    each with the known key it most likely meant."""
    known = (REQUIRED_META + SHARED_META if edition is None else EDITION_META) + JUPYTER_META
    for key in meta:
        if key in known or (edition is not None and key in SHARED_META):  # an edition's is refused on its own
            continue
        close = closest(key, known)
        errors.error(_key_line(token, str(key)), "the front matter has no key '{}'{}; the keys are {} (a key the "
                                                 "build does not know would be ignored)".format(
                                                     key, "; did you mean '{}'?".format(close) if close else "",
                                                     ", ".join(known)))


def _deepest_line(token):
    """The file line of the front matter's most indented or most bracketed line: where too deep a nesting is."""
    lines = token.content.splitlines() or [""]
    depth = [len(line) - len(line.lstrip(" -")) + line.count("[") + line.count("{") for line in lines]
    return token.map[0] + 2 + depth.index(max(depth))


def _check_edition_meta(token, meta, edition, errors):
    """Errors for an edition's front matter that disagrees with its file name or says what only lesson.md says."""
    if edition not in i18n.languages():
        errors.error(None, "an edition is named lesson.<language>.md, and '{}' is not one of the course's languages "
                           "({}); rename the file".format(edition, ", ".join(i18n.languages())))
    elif "language" in meta and meta["language"] != edition:
        errors.error(_key_line(token, "language"), "this is the '{}' edition (its file name says so), but its front "
                                                   "matter says 'language: {}'; make the two agree".format(
                                                       edition, meta["language"]))
    for key in SHARED_META:
        if key in meta:
            errors.error(_key_line(token, key), "an edition takes '{}' from lesson.md, for all the lesson's "
                                                "editions; delete this line".format(key))


def check_slug(slug, errors):
    """An error for a lesson folder whose name a link cannot hold as it is (it becomes the page's URL path)."""
    bad = sorted(set(char for char in slug if char in URL_SPECIAL or ord(char) < 32 or ord(char) == 127))
    if bad:
        errors.error(None, "the lesson folder '{}' has {} in its name, which a link cannot hold as it is; rename the "
                           "folder (letters, digits, '-', '_' and '.' are safe)".format(
                               slug, ", ".join(repr(char) for char in bad)))


def _check_packages_entries(token, entries, errors):
    """Errors for a `packages:` that is not a list of 'name==version' pins, that lists NumPy, or one package twice."""
    if not isinstance(entries, list):
        errors.error(_key_line(token, "packages"), "packages must be a list of pinned packages, such as "
                                                   "'packages: [einops==0.8.1]'")
        return
    first = {}  # canonical name -> (entry, line) of its first pin
    for entry, line in zip(entries, entry_lines(token, entries)):
        problem = packages.entry_problem(entry)
        if problem:
            errors.error(line, problem)
            continue
        name = canonicalize_name(packages.ENTRY.match(entry.strip()).group(1))
        if name in first:
            errors.error(line, "{} is listed twice in packages: ('{}' here, '{}' at line {}); keep one pin".format(
                name, entry.strip(), first[name][0], first[name][1]))
        else:
            first[name] = (entry.strip(), line)


def entry_lines(token, entries):
    """The file line of each `packages:` entry in turn: each found after the one before, so a repeated entry gets
    its own line; an entry not found gets the key's line."""
    key = _key_line(token, "packages")
    text = token.content
    start = sum(len(line) + 1 for line in text.splitlines()[:key - token.map[0] - 2])
    found = []
    for entry in entries:
        at = text.find(str(entry).strip(), start)
        if at < 0:
            found.append(key)
            continue
        start = at + len(str(entry).strip())
        found.append(token.map[0] + 2 + text.count("\n", 0, at))
    return found


def package_line(token, entry):
    """The file line of one `packages:` entry: the line after the key that names it, else the key's line."""
    key = _key_line(token, "packages")
    lines = token.content.splitlines()
    for number in range(key - token.map[0] - 2, len(lines)):
        if number >= 0 and str(entry).strip() in lines[number]:
            return token.map[0] + 2 + number
    return key


def check_orders(lessons):
    """Errors for lessons that share an `order`, each naming the lesson that holds it first."""
    errors = []
    first = {}
    for lesson in sorted(lessons, key=lambda lesson: lesson.slug):
        order = lesson.meta.get("order")
        if not isinstance(order, int):
            continue
        if order in first:
            line = _key_line(lesson.tokens[0], "order")
            errors.append(LessonError(lesson.path, line, "order {} is already the order of {}; give each lesson "
                                                         "its own".format(order, first[order].path)))
        else:
            first[order] = lesson
    return errors


def check_packages(lessons):
    """Errors for lessons whose folders give the same package name (01-x and 02-x would both import `x`), or a name
    that would shadow NumPy, the course library or the standard library, or is a keyword."""
    errors, first = [], {}
    for lesson in sorted(lessons, key=lambda lesson: lesson.slug):
        problem = packages.shadowed(lesson.package)
        if problem:
            errors.append(LessonError(lesson.path, None, "the lesson folder '{}' gives the lesson's package the name "
                                                         "'{}', which {}; rename the folder (for example '{}')".format(
                                                             lesson.slug, lesson.package, problem,
                                                             lesson.slug + "-lesson")))
        errors += _shadowing_modules(lesson)
        other = first.setdefault(lesson.package, lesson)
        if other is not lesson:
            errors.append(LessonError(lesson.path, None, "this lesson's package would be '{}', as {}'s is; rename "
                                                         "one of the two folders".format(lesson.package, other.path)))
    return errors


def _shadowing_modules(lesson):
    """Errors for a module beside lesson.md (a .py file, or a folder with __init__.py) that would be imported in place
    of one cells rely on: the lesson's folder is on their path before the standard library."""
    errors = []
    for path in sorted(lesson.folder.iterdir()) if lesson.folder is not None else ():
        if path.suffix == ".py" and path.is_file():
            module = path.stem
        elif (path / "__init__.py").is_file() and path.name != lesson.package:  # the package is checked by name
            module = path.name
        else:
            continue
        problem = packages.shadowed(module)
        if problem:
            errors.append(LessonError(display_path(path), None, "this module, '{}', is on the path of the lesson's "
                                                                "cells, and it {}; rename it, or move it into the "
                                                                "lesson's package".format(module, problem)))
    return errors


def _key_line(token, key):
    """The file line of a front-matter key (the front matter's first line when it is not found)."""
    for number, line in enumerate(token.content.splitlines()):
        if line.startswith(key + ":"):
            return token.map[0] + 2 + number
    return token.map[0] + 1


def check_fences_closed(source, tokens, errors):
    """Report fences that run to the end of the file because they were never closed."""
    lines = source.splitlines()
    for token in tokens:
        if token.type not in ("fence", "colon_fence") or token.map is None:
            continue
        start, end = token.map
        last = lines[end - 1].strip() if end - 1 < len(lines) and end - 1 > start else ""
        closed = last.startswith(token.markup) and last.strip(token.markup[0]) == ""
        if end >= len(lines) and not closed:
            errors.error(start + 1, "this '{}' fence is never closed; add a line '{}' where it ends".format(
                token.markup, token.markup))
