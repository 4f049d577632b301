"""Execute each lesson's cells in CPython at build time, through the runner and its cache."""

from . import runner
from .errors import LessonError

# What a cell that imports micropip is told: adding it under `packages:` is refused (packages.RESERVED).
MICROPIP = ("which this lesson's page does not ship, and which no lesson lists under 'packages:' (the build refuses "
            "it there): a page ships Python's standard library, NumPy, the course library (py/course/), the "
            "lesson's own package and the pure wheels its lesson.md pins under 'packages:', which the page unpacks "
            "without micropip; micropip itself comes only with a lesson that lists packages, for learners' code, and "
            "installs nothing from the network at build time. Remove the import, or pin what you wanted to install "
            "under 'packages:', such as 'packages: [einops==0.8.1]'")


def requests_for(lesson, label):
    """The requests that run a lesson as its page does: a fresh namespace, then each cell in order, each followed by
    the glue so far (so the build knows which cell glued which value)."""
    requests = [{"type": "init", "label": label, "language": lesson.language}]
    for cell in lesson.cells:
        requests += [{"type": "run", "cell": cell.name, "code": cell.code}, {"type": "glued"}]
    return requests


def run_cells(lesson, label, settings):
    """Return ({cell number: output items}, {glued name: value}, {cell number: names it glued}, errors)."""
    if not lesson.cells:
        return {}, {}, {}, []
    outcome = runner.cached_run(requests_for(lesson, label), settings)
    if outcome.stuck is not None or not all(reply["ok"] for reply in outcome.replies):
        return {}, {}, {}, [_not_run(lesson, outcome)]
    outputs, glued_by, errors = {}, {}, []
    before = {}
    for index, cell in enumerate(lesson.cells):
        result, after = outcome.replies[1 + 2 * index]["value"], outcome.replies[2 + 2 * index]["value"]
        outputs[cell.number] = result["output"]
        glued_by[cell.number] = sorted(name for name in after if name not in before or before[name] != after[name])
        before = after
        error = _unexpected(lesson, cell, result)
        if error is not None:
            # A name a failed cell above never defined: an echo of that failure, summarised under it.
            error.consequence = bool(errors) and not result["ok"] and result["error"]["type"] in (
                "NameError", "UnboundLocalError")
            errors.append(error)
    return outputs, before, glued_by, errors


def draw_explorables(lesson, strings, settings):
    """Draw each explorable through the runner; yield (explorable, error message or None), filling in its HTML."""
    requests = [{"type": "explorable", "module": explorable.module, "number": explorable.number, "strings": strings,
                 "language": lesson.language, "folder": str(lesson.folder)} for explorable in lesson.explorables]
    if not requests:
        return
    outcome = runner.cached_run(requests, settings)
    for index, explorable in enumerate(lesson.explorables):
        if index >= len(outcome.replies):
            yield explorable, "explorable '{}' {}; {}".format(explorable.module, outcome.reason, outcome.hint())
            continue
        reply = outcome.replies[index]
        drawn = reply["value"] if reply["ok"] else {"error": reply["error"]["text"].strip()}
        explorable.html, explorable.glue = drawn.get("html", ""), drawn.get("glue", {})
        yield explorable, drawn.get("error")


def _not_run(lesson, outcome):
    """The error for cells that could not all be run."""
    reason = outcome.reason or next(reply["error"]["text"].strip() for reply in outcome.replies if not reply["ok"])
    # Request 2n - 1 runs cell n (1-based) and request 2n reads the glue after it.
    if outcome.stuck is not None and 0 < outcome.stuck <= 2 * len(lesson.cells):
        cell = lesson.cells[(outcome.stuck - 1) // 2]
        return LessonError(lesson.path, cell.line, "cell {} {}; {}".format(cell.name, reason, outcome.hint()))
    failed = next((index for index, reply in enumerate(outcome.replies) if not reply["ok"]), 0)
    if 1 <= failed <= 2 * len(lesson.cells):  # Python answered, and a request of that cell failed
        cell = lesson.cells[(failed - 1) // 2]
        return LessonError(lesson.path, cell.line, "cell {} could not be run ({})".format(cell.name, reason))
    return LessonError(lesson.path, lesson.cells[0].line,
                       "the cells could not be run ({}); is the course library importable?".format(reason))


def _unexpected(lesson, cell, result):
    """An error for a cell that raised without being marked, or was marked and did not raise."""
    if result["ok"] and cell.raises:
        return LessonError(lesson.path, cell.line, "cell {} is tagged raises-exception but ran without error; "
                           "remove the tag or make it raise".format(cell.name))
    if not result["ok"] and not cell.raises:
        error = result["error"]
        message = error["message"].strip().splitlines()
        raised = "{}: {}".format(error["type"], message[0]) if message else error["type"]
        line = cell.code_line + (error["line"] or 1) - 1
        if error["type"] == "ModuleNotFoundError" and "'micropip'" in error["message"] and not lesson.packages:
            return LessonError(lesson.path, line, "cell {} imports micropip, {}".format(cell.name, MICROPIP))
        return LessonError(lesson.path, line, "cell {} raised {}; fix the code, or tag the cell "
                           "':tags: [raises-exception]' if the error is the point".format(cell.name, raised))
    return None
