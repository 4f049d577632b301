"""Prove each exercise's checker at build time: the reference passes, every known-wrong solution fails.

Each page proves its own checker in its own language, so an edition grades lesson.md's known-wrong solutions
too, with the function already under the edition's name (the exercise block renamed it when it read them).
"""

import ast

from . import runner
from .errors import LessonError, display_path


def jobs_for(exercise):
    """The solutions to grade for one exercise, by name: the reference first, then each known-wrong one."""
    jobs = [("solution", exercise.solution)] + [("wrong/" + name, code) for name, code in sorted(exercise.wrong.items())]
    return [(name, {"type": "check", "checker": exercise.checker, "code": code}) for name, code in jobs]


def in_language(lesson, requests):
    """The requests after an init that makes course.numbers write in the lesson's language, as the page's worker does."""
    return [{"type": "init", "label": "solution", "language": lesson.language}] + list(requests)


def check_exercises(lesson, settings):
    """Errors for every exercise of the lesson whose checker is not proven right."""
    errors = []
    for exercise in lesson.exercises:
        jobs = jobs_for(exercise)
        outcome = runner.cached_run(in_language(lesson, [request for _, request in jobs]), settings)
        failed = [reply["error"]["text"].strip() for reply in outcome.replies if not reply["ok"]]
        if outcome.stuck is not None:
            graded = jobs[outcome.stuck - 1][0] if outcome.stuck else "nothing (Python did not start)"
            errors.append(LessonError(lesson.path, exercise.line, "exercise '{}': grading {} {}; {}".format(
                exercise.id, graded, outcome.reason, outcome.hint())))
            continue
        if failed:
            errors.append(LessonError(lesson.path, exercise.line, "exercise '{}': its checker could not be "
                                      "run ({})".format(exercise.id, failed[0].splitlines()[-1])))
            continue
        results = {name: reply["value"] for (name, _), reply in zip(jobs, outcome.replies[1:])}
        exercise.function = results["solution"].get("function", "")  # the page's heading names it
        errors += _verdict_errors(lesson, exercise, results)
    return errors


def _verdict_errors(lesson, exercise, results):
    errors = []
    reference = results["solution"]
    if not reference["passed"]:
        failed = next((item["message"] for item in reference["results"] if not item["ok"]), "no result")
        path, line = solution_place(lesson, exercise, reference)
        errors.append(LessonError(path, line, "exercise '{}' ({}:{}): the reference solution fails its "
                                  "checker: {}".format(exercise.id, lesson.path, exercise.line, failed)))
    for name, result in sorted(results.items()):
        if name.startswith("wrong/") and result["passed"]:
            errors.append(LessonError(lesson.path, exercise.line, "exercise '{}': the known-wrong solution {} "
                                      "passes the checker; make the checker reject that mistake".format(
                                          exercise.id, name)))
    return errors


def solution_place(lesson, exercise, reference):
    """(file, line) to report a failing reference at: the line of solution.py that raised, else the line that
    defines the function the checker calls, else its first line; lesson.md's exercise line if there is no file."""
    if exercise.solution_path is None:
        return lesson.path, exercise.line
    error = reference.get("error") or {}
    line = error.get("line") or _defined_at(exercise.solution, reference.get("function", "")) or 1
    return display_path(exercise.solution_path), line


def _defined_at(code, name):
    """The line of the top-level `def name` in `code`, or None."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    return next((node.lineno for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and node.name == name), None)
