"""Links and images in a lesson's Markdown, checked before anything runs.

A relative link goes to a page of the course (a lesson's folder, an edition's `<folder>/<language>/`, an index) and,
with `#name`, to an anchor that page has: a cell's or quiz's `:id:` (`#cell-<id>`, `#quiz-<id>`) or an exercise
(`#exercise-<id>`). A link to a page or anchor that does not exist is refused at its line; one to a lesson folder
that lessons/ lacks is warned about (a course built from some of the lessons, as the suite does, keeps such links). An image is refused:
the build does not ship image files with a page yet (the page's policy loads images from the site alone), so it
would show broken; draw a figure from a cell or an explorable instead.
"""

import posixpath
import re

from .blocks.base import anchor
from .errors import LessonError
from .tokens import children_with_lines

SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
LESSON_FOLDER = re.compile(r"^\d+-")  # a lesson's folder, as the course numbers them (005-position-and-block)
PAGE_IDS = ("content",)  # ids every page has (the skip link's target)


def page_anchors(lesson):
    """The anchors a link may name on the page of `lesson`."""
    found = set(PAGE_IDS)
    for block in lesson.blocks:
        if getattr(block, "is_cell", False) or getattr(block, "is_quiz", False):
            stable = anchor("cell" if getattr(block, "is_cell", False) else "quiz", block.key)
            found.update([stable] if stable else [])
        elif getattr(block, "is_exercise", False):
            found.update(["exercise-" + block.id, "exercise-{}-title".format(block.id)])
    return found


def check(pages, languages, lessons_dir, only=None):
    """Errors for every link to a missing page or anchor, and every image, in `pages` (the course's Lessons);
    `only` is the one lesson folder a --lesson build makes (links to other lessons are not checked then).
    A link to a lesson folder the lessons folder lacks is no error (see absent_lessons)."""
    return _problems(pages, languages, lessons_dir, only)[0]


def absent_lessons(pages, languages, lessons_dir, only=None):
    """(path, line, message) for every link to a lesson folder the lessons folder lacks: a course built from some
    of the lessons (as the suite builds one alone) keeps its links to the others, so the build warns; a typo in a
    folder's name reads the same, which the warning's words say."""
    return _problems(pages, languages, lessons_dir, only)[1]


def _problems(pages, languages, lessons_dir, only):
    by_dir = {page.page_dir: page for page in pages}
    indexes = {""} | {language + "/" for language in languages}
    folders = {path.name for path in lessons_dir.iterdir() if path.is_dir()} if lessons_dir.is_dir() else set()
    errors, absent = [], []
    for page in pages:
        for tokens in page.token_lists():
            for token in tokens:
                for child, line in children_with_lines(token) if token.type == "inline" else ():
                    if child.type == "image":
                        errors.append(LessonError(page.path, line, "the image '{}' would not be shipped with the page "
                                                  "(the build copies no image files yet), so it would show broken; "
                                                  "draw the figure from a cell or an explorable, or remove it".format(
                                                      child.attrGet("src"))))
                    elif child.type == "link_open":
                        href = child.attrGet("href") or ""
                        problem = _link_problem(page, href, by_dir, indexes, folders, only)
                        if problem and _lesson_folder_of(page, href) not in folders | {None}:
                            absent.append((page.path, line, "the link '{}' leads to a lesson folder that "
                                           "lessons/ does not hold: a page that a course built with it shows; check "
                                           "the folder's name".format(href)))
                        elif problem:
                            errors.append(LessonError(page.path, line, problem))
    return errors, absent


def _lesson_folder_of(page, href):
    """The lesson folder a relative link leads into ('005-position-and-block'), or None for the index or outside."""
    path = href.partition("#")[0]
    if not path or SCHEME.match(href) or href.startswith("/"):
        return None
    target = posixpath.normpath(posixpath.join(page.page_dir, path))
    first = target.split("/")[0]
    return first if LESSON_FOLDER.match(first) else None


def _link_problem(page, href, by_dir, indexes, folders, only):
    if SCHEME.match(href) or href.startswith("/"):
        return None  # another site's page, or mail: not the course's to check
    path, _, name = href.partition("#")
    target = posixpath.normpath(posixpath.join(page.page_dir, path)) if path else page.page_dir.rstrip("/")
    if target.startswith(".."):
        return "the link '{}' leads out of the site; link a lesson as '../<folder>/' (or '../../<folder>/' from an " \
               "edition)".format(href)
    target = "" if target == "." else target
    if target.endswith("index.html"):
        target = target[:-len("index.html")]
    target = target if not target or target.endswith("/") else target + "/"
    if target in indexes and not name:
        return None
    other = by_dir.get(target)
    if other is None:
        if only is not None and target.split("/")[0] in folders and target.split("/")[0] != only:
            return None  # a lesson this one-lesson build leaves out
        return "the link '{}' leads to '{}', which is no page of the course (pages: {}); fix the folder's name, or " \
               "add '<language>/' for an edition".format(href, target or "the index", ", ".join(sorted(by_dir)))
    if name and name not in page_anchors(other):
        return "the link '{}' names '#{}', which {} does not have (it has: {}); anchors are a cell's or quiz's ':id:' " \
               "('#cell-<id>', '#quiz-<id>') or an exercise ('#exercise-<id>')".format(
                   href, name, other.path, ", ".join(sorted(page_anchors(other) - set(PAGE_IDS))) or "none")
    return None
