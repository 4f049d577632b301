"""Build errors that name a file and line, collected so an author sees them all at once."""


class LessonError(Exception):
    """One problem in a source file: where it is, what is wrong and how to fix it."""

    def __init__(self, path, line, message):
        super().__init__(message)
        self.path = path
        self.line = line
        self.message = message

    def __str__(self):
        where = str(self.path) if self.line is None else "{}:{}".format(self.path, self.line)
        return "{}: {}".format(where, self.message)


class BuildFailed(Exception):
    """The build stopped; carries every error found."""

    def __init__(self, errors):
        super().__init__("\n".join(str(error) for error in errors))
        self.errors = list(errors)


class Collector:
    """Gathers LessonErrors for one file."""

    def __init__(self, path):
        self.path = path
        self.errors = []

    def error(self, line, message):
        """Record a problem at 1-based `line` (or None for the whole file)."""
        self.errors.append(LessonError(self.path, line, message))
