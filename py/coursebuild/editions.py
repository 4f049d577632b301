"""A lesson's editions: lesson.<language>.md beside lesson.md, grouped with it and checked against it.

An edition is the same lesson in another language. It has its own prose, cells, quiz texts and exercise
files, and shares the rest: the lesson's package (explorables, checkers, modules), its order and its
packages. So that a learner who switches edition finds the same lesson, the two files must agree on
what a reader of either does: the same blocks in the same order, each with the same id, tags, checked
quizzes, quiz kind and key, exercise checker and explorable, and the same values quoted through {glue}.
A drifted edition fails the build at the edition's line where the two part.
"""

from .errors import LessonError
from .glue_role import split as split_role
from .tokens import children_with_lines


def group(files):
    """(lessons, errors): each lesson.md's Lesson with `editions` (itself first, then its editions by language);
    an edition without a lesson.md, or in lesson.md's own language, is an error."""
    primaries = {lesson.slug: lesson for lesson in files if lesson.edition is None}
    errors = []
    for lesson in primaries.values():
        lesson.editions = [lesson]
    for edition in sorted((lesson for lesson in files if lesson.edition is not None), key=lambda each: each.key):
        primary = primaries.get(edition.slug)
        if primary is None:
            errors.append(LessonError(edition.path, None, "an edition needs the lesson it is an edition of; add "
                                                          "lesson.md to its folder"))
            continue
        if edition.edition == primary.language:
            errors.append(LessonError(edition.path, None, "lesson.md is already the '{}' edition; an edition is in "
                                                          "another language".format(primary.language)))
            continue
        edition.primary = primary
        primary.editions.append(edition)
        errors += check_agreement(primary, edition)
    return list(primaries.values()), errors


def check_agreement(primary, edition):
    """Errors where `edition` parts from `primary`: its first block that differs, and the glue names it drops or adds."""
    errors = []
    mine, theirs = block_outline(edition), block_outline(primary)
    for index in range(max(len(mine), len(theirs))):
        here = mine[index] if index < len(mine) else None
        there = theirs[index] if index < len(theirs) else None
        if here is None or there is None or here[1] != there[1]:
            errors.append(_drift(primary, edition, here, there, index))
            break
    errors += _glue_drift(primary, edition)
    return errors


def block_outline(lesson):
    """[(line, outline)] for each block of the lesson in order: what a reader of any edition must find the same."""
    outline = []
    for token in lesson.tokens:
        block = token.meta.get("block") if token.meta else None
        if block is not None:
            outline.append((token.map[0] + 1 if token.map else None, describe(block)))
    return outline


def describe(block):
    """The parts of a block that editions share, as a tuple that starts with its kind."""
    if getattr(block, "is_cell", False):
        return ("code-cell", _explicit(block.key), tuple(block.tags), tuple(block.checks))
    if getattr(block, "is_quiz", False):
        return ("quiz", _explicit(block.key), block.kind, len(block.options), tuple(block.correct), block.answer,
                block.tolerance)
    if getattr(block, "is_exercise", False):
        return ("exercise", block.id, block.checker)
    if getattr(block, "is_explorable", False):
        return ("explorable", block.module)
    if getattr(block, "is_self_check", False):
        return ("self-check", tuple(tuple((ref.kind, ref.name) for ref in item.references) for item in block.items))
    return (type(block).__name__.lower(),)


def _explicit(key):
    """A block's ':id:', or None when its key is a hash of its source (which differs between editions)."""
    return None if key.startswith("~") else key


def _drift(primary, edition, here, there, index):
    """The error for the first block where the two editions part."""
    if here is None:
        return LessonError(edition.path, None, "this edition ends after {} block(s), but {} goes on with {} at line "
                                               "{}; add it".format(index, primary.path, _name(there[1]), there[0]))
    if there is None:
        return LessonError(edition.path, here[0], "{} has no block here ({} has {} block(s)); remove this {} or add "
                                                  "it to both".format(primary.path, primary.path, index,
                                                                      _name(here[1])))
    return LessonError(edition.path, here[0], "block {} is {}, but in {} (line {}) it is {}; editions have the same "
                                              "blocks in the same order, with the same ids, tags and keys".format(
                                                  index + 1, _name(here[1]), primary.path, there[0], _name(there[1])))


def _name(outline):
    """A block's outline in words, for a message."""
    kind, details = outline[0], [part for part in outline[1:] if part not in (None, (), 0)]
    return "a {}{}".format(kind, " ({})".format(", ".join(str(part) for part in details)) if details else "")


def _glue_drift(primary, edition):
    """Errors for glue names that one edition quotes and the other does not."""
    mine, theirs = glue_uses(edition), glue_uses(primary)
    errors = []
    for name in sorted(set(mine) - set(theirs)):
        errors.append(LessonError(edition.path, mine[name], "{{glue}}`{}` is quoted here but never in {}; editions "
                                                            "quote the same values".format(name, primary.path)))
    for name in sorted(set(theirs) - set(mine)):
        errors.append(LessonError(edition.path, None, "{} quotes {{glue}}`{}` (line {}), and this edition never "
                                                      "does; quote it too".format(primary.path, name, theirs[name])))
    return errors


def glue_uses(lesson):
    """{name: first line} of every value the lesson's prose quotes through {glue}."""
    uses = {}
    for token in (token for tokens in lesson.token_lists() for token in tokens):
        for child, line in children_with_lines(token):
            if child.type == "myst_role" and child.meta.get("name") == "glue":
                name = split_role(child.content)[0]
                uses[name] = min(uses.get(name, line), line)
    return uses
