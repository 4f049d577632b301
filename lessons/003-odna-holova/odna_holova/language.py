"""The language the lesson's code writes in: the page's (course.numbers.current_language), read at call time.

lesson.md is Ukrainian, lesson.en.md and lesson.es.md its English and Spanish editions; one process may write in
all three, so every module keeps its sentences in one table {"uk": ..., "en": ..., "es": ...} and picks from it
when it writes.
"""

from course.numbers import current_language


def phrases(table, language=None):
    """The entry of a per-language table for `language` (default: the page's); English for a language the lesson
    has no edition in, as the course's interface falls back to English."""
    return table.get(language or current_language(), table["en"])
