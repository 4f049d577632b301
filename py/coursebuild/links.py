"""Links and images in a lesson's Markdown, checked before anything runs.

A relative link goes to a page of the course (a lesson's folder, an edition's `<folder>/<language>/`, an index) and,
with `#name`, to an anchor that page has: a cell's or quiz's `:id:` (`#cell-<id>`, `#quiz-<id>`) or an exercise
(`#exercise-<id>`). A link to a lesson or anchor that does not exist is refused at its line. An image is refused:
the build does not ship image files with a page yet (the page's policy loads images from the site alone), so it
would show broken; draw a figure from a cell or an explorable instead.
"""

import posixpath
import re

from .blocks.base import anchor
from .errors import LessonError
from .tokens import children_with_lines

SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
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
    `only` is the one lesson folder a --lesson build makes (links to other lessons are not checked then)."""
    by_dir = {page.page_dir: page for page in pages}
    indexes = {""} | {language + "/" for language in languages}
    folders = {path.name for path in lessons_dir.iterdir() if path.is_dir()} if lessons_dir.is_dir() else set()
    errors = []
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
                        problem = _link_problem(page, child.attrGet("href") or "", by_dir, indexes, folders, only)
                        if problem:
                            errors.append(LessonError(page.path, line, problem))
    return errors


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
