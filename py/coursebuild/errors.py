"""Build errors that name a file and line, collected so an author sees them all at once.

An error may be marked as a consequence: one that probably follows from another
error in the same file (a value nothing recorded because its cell failed). When
a file has an error that is not a consequence, its consequences are summarised
in one line, so the root cause is not buried under a dozen echoes of it.
"""

import difflib
from pathlib import Path


class LessonError(Exception):
    """One problem in a source file: where it is, what is wrong and how to fix it."""

    def __init__(self, path, line, message, consequence=False):
        super().__init__(message)
        self.path = path
        self.line = line
        self.message = message
        self.consequence = consequence

    def __str__(self):
        where = str(self.path) if self.line is None else "{}:{}".format(self.path, self.line)
        return "{}: {}".format(where, self.message)


class BuildFailed(Exception):
    """The build stopped; carries every error found, consequences of a root cause summarised."""

    def __init__(self, errors):
        self.errors = summarise(list(errors))
        super().__init__("\n".join(str(error) for error in self.errors))


class Collector:
    """Gathers LessonErrors for one file."""

    def __init__(self, path):
        self.path = path
        self.errors = []

    def error(self, line, message, consequence=False):
        """Record a problem at 1-based `line` (or None for the whole file)."""
        self.errors.append(LessonError(self.path, line, message, consequence))

    def error_in(self, path, line, message):
        """Record a problem in another file that this one names (an exercise's code)."""
        self.errors.append(LessonError(display_path(path), line, message))


def summarise(errors):
    """The errors, with the consequences in each file that also has a root cause folded into one line."""
    roots = {str(error.path) for error in errors if not error.consequence}
    kept, folded = [], {}
    for error in errors:
        if error.consequence and str(error.path) in roots:
            folded.setdefault(str(error.path), []).append(error)
        else:
            kept.append(error)
    for group in folded.values():
        lines = ", ".join(str(error.line) for error in group if error.line is not None)
        kept.append(LessonError(group[0].path, None, "{} more error(s) (lines {}) probably follow from the one(s) "
                                "above, the first being: {}; fix those first".format(
                                    len(group), lines or "unknown", group[0].message)))
    return kept


def closest(written, known):
    """The known name an author most likely meant by `written`, or None."""
    close = difflib.get_close_matches(str(written).strip().lower(), list(known), n=1, cutoff=0.6)
    return close[0] if close else None


def display_path(path):
    """The path as an author would type it: relative to the working directory when inside it."""
    path = Path(path).resolve()
    try:
        return path.relative_to(Path.cwd())
    except ValueError:
        return path


def read_source(path, errors):
    """The text of a source file, or None after reporting a folder in its place, or a file that is not UTF-8 at the
    line of its first bad byte."""
    if Path(path).is_dir():
        errors.error_in(path, None, "this is a folder, not a file; put the text in a file of that name")
        return None
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        errors.error_in(path, line, "this file is not UTF-8 (byte 0x{:02x} cannot be read); save it as UTF-8 in "
                                    "your editor".format(data[error.start]))
        return None
