"""The command line: `build`, `serve`, `grade`, `new`. Defaults live here and nowhere else."""

import argparse
import os
import sys
import threading
from pathlib import Path

from . import checking, runner, scaffold
from . import serve as serve_module
from .assets import load_strings
from .errors import BuildFailed, LessonError
from .lesson import package_name
from .site import Config, build, find_lesson, load_lessons, pages, resolve_packages

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_PORT = 8000
DEFAULT_CELL_TIMEOUT = 60


def seconds(text):
    """A positive number of seconds, for argparse."""
    try:
        value = float(text)
    except ValueError:
        value = 0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError("{!r} is not a positive number of seconds".format(text))
    return value


def parser():
    """The argument parser for build.py."""
    top = argparse.ArgumentParser(prog="build.py", description=(
        "Build the course into a static site (lessons/ -> _site/), serve it, or grade an exercise."))
    top.add_argument("--lessons", default=str(ROOT / "lessons"), help="lesson folder (default: lessons/)")
    top.add_argument("--out", default=str(ROOT / "_site"), help="output folder (default: _site/)")
    top.add_argument("--cache", default=os.environ.get("COURSE_CACHE", str(ROOT / ".cache")),
                     help="cache for runtimes, bundles and cell outputs (default: .cache/, or $COURSE_CACHE)")
    top.add_argument("--pyodide-dir", default=os.environ.get("COURSE_PYODIDE_DIR"),
                     help="use this unpacked Pyodide distribution (or set $COURSE_PYODIDE_DIR)")
    top.add_argument("--runtime", choices=("auto", "official", "legacy"),
                     default=os.environ.get("COURSE_RUNTIME", "auto"),
                     help="auto: official npm pyodide + its NumPy wheel, else the legacy 0.17.1 "
                          "distribution; official/legacy force one (or set $COURSE_RUNTIME)")
    top.add_argument("--cell-timeout", type=seconds, default=DEFAULT_CELL_TIMEOUT, metavar="SECONDS",
                     help="fail the build when one cell (or one graded solution) runs longer than this "
                          "(default: %(default)s s)")
    commands = top.add_subparsers(dest="command")
    one_lesson(commands.add_parser("build", help="build _site/ (the default command)"))
    one_lesson(commands.add_parser("scorm", help="build _site/ and a SCORM 1.2 package per lesson edition, "
                                                 "_site/scorm/<lesson>-<language>.zip, for a learning platform"))
    serve = one_lesson(commands.add_parser("serve", help="build, serve on 127.0.0.1 and rebuild on change"))
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default: %(default)s; 0 picks one)")
    serve.add_argument("--no-watch", action="store_true", help="do not rebuild when files change")
    grade = commands.add_parser("grade", help="grade a solution file with an exercise's checker, as the page does")
    grade.add_argument("exercise", nargs="?", help="LESSON/EXERCISE, e.g. 000-varias-cabezas/multi_head")
    grade.add_argument("file", nargs="?", help="the solution, a Python file")
    grade.add_argument("--list", action="store_true", help="list every exercise id")
    new = commands.add_parser("new", help="start a lesson: lessons/<number>-NAME/ (numbered after the last folder) "
                                          "with a cell, a quiz, an exercise, an explorable and the lesson's own "
                                          "test, which build and pass their checks at once")
    new.add_argument("name", help="the lesson's name in its URL, lowercase words joined by dashes, e.g. softmax-basics")
    new.add_argument("--language", choices=sorted(scaffold.TEXT), default="en",
                     help="the lesson's language (default: %(default)s)")
    return top


def one_lesson(command):
    """Give a building command --lesson NAME."""
    command.add_argument("--lesson", metavar="NAME",
                         help="build only this lesson, with its editions, as a course of one lesson: its folder's "
                              "name (005-position-and-block) or the part after the number (position-and-block)")
    return command


def config_from(args):
    """A build Config from parsed arguments; a --lesson that names no lesson folder raises ValueError."""
    lessons_dir = Path(args.lessons)
    lesson = getattr(args, "lesson", None)
    return Config(root=ROOT, lessons_dir=lessons_dir, out_dir=Path(args.out), cache_dir=Path(args.cache),
                  cell_timeout=args.cell_timeout, pyodide_dir=args.pyodide_dir, runtime=args.runtime,
                  scorm=args.command == "scorm", lesson=find_lesson(lessons_dir, lesson) if lesson is not None else None)


def run_build(config):
    """Build once; print every error and return an exit status."""
    return 1 if build_errors(config) else 0


def build_errors(config):
    """Build once; print every error and return them (an empty list when the build succeeded)."""
    try:
        build(config)
    except BuildFailed as failure:
        for error in failure.errors:
            print(error, file=sys.stderr)
        print("Build failed with {} error(s); {} was left as it was.".format(
            len(failure.errors), config.out_dir), file=sys.stderr)
        return failure.errors
    except LessonError as error:
        print(error, file=sys.stderr)
        return [error]
    except OSError as error:  # the output or cache folder cannot be written: a full disk, a file in the way
        message = "{}: cannot write the site ({}); check that folder, or build elsewhere with --out".format(
            error.filename or config.out_dir, error.strerror or error)
        print(message, file=sys.stderr)
        return [message]
    return []


def run_serve(config, port, watch):
    """Build, then serve; rebuild when lessons, front end or library change, and tell the pages how it went."""
    status = serve_module.BuildStatus()
    folders = [config.lessons_dir, config.root / "site", config.root / "py"]
    before = serve_module.snapshot(folders) if watch else None  # before the build: no save is missed
    if serve_module.rebuild(lambda: build_errors(config), status) and not config.out_dir.exists():
        return 1
    try:
        server = serve_module.make_server(config.out_dir, port, status=status)
    except OSError as error:
        print("build.py serve: port {} is in use or cannot be opened ({}); choose another with --port "
              "(--port 0 picks a free one)".format(port, error.strerror or error), file=sys.stderr)
        return 1
    host, port = server.server_address[:2]
    print("Serving {} at http://{}:{}/ (Ctrl+C stops)".format(config.out_dir, host, port), flush=True)
    if watch:
        thread = threading.Thread(target=serve_module.watch, args=(folders, lambda: build_errors(config), status),
                                  kwargs={"before": before}, daemon=True)
        thread.start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def run_grade(config, args, strings):
    """Grade a file: exit 0 if it passes, 1 if it fails, 2 for a usage error."""
    lessons, _ = load_lessons(config)
    exercises = {"{}/{}".format(lesson.key, exercise.id): (lesson, exercise)  # an edition's: <folder>/<language>/<id>
                 for lesson in pages(lessons) for exercise in lesson.exercises}
    if args.list:
        print("\n".join(sorted(exercises)))
        return 0
    if not args.exercise or not args.file:
        print("usage: build.py grade LESSON/EXERCISE FILE.py  (or: build.py grade --list)", file=sys.stderr)
        return 2
    if args.exercise not in exercises:
        print("no exercise '{}' (known: {})".format(args.exercise, ", ".join(sorted(exercises)) or "none"),
              file=sys.stderr)
        return 2
    path = Path(args.file)
    if not path.is_file():
        print("no file {}".format(path), file=sys.stderr)
        return 2
    try:
        code = path.read_bytes().decode("utf-8-sig")  # an editor's byte order mark is no part of the code
    except UnicodeDecodeError as error:
        print("{}: the file is not UTF-8 text (byte {} cannot be read); save it as UTF-8".format(path, error.start),
              file=sys.stderr)
        return 2
    lesson, exercise = exercises[args.exercise]
    request = {"type": "check", "checker": exercise.checker, "code": code}
    wheels, problems = resolve_packages([lesson], config.cache_dir, lambda text: print(text, file=sys.stderr))
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    settings = runner.Settings(config.root / "py", config.cache_dir, "", config.cell_timeout).for_lesson(
        lesson, wheels[lesson.slug])
    outcome = runner.run(checking.in_language(lesson, [request]), settings)
    if outcome.stuck is not None:
        print("{}: the solution {}; {}".format(path, outcome.reason, outcome.hint()), file=sys.stderr)
        return 1
    reply = next((reply for reply in outcome.replies if not reply["ok"]), outcome.replies[-1])
    if not reply["ok"]:
        print("{}: the checker {} could not be run ({})".format(
            path, exercise.checker, reply["error"]["text"].strip().splitlines()[-1]), file=sys.stderr)
        return 1
    print_grade(path, reply["value"], strings[lesson.language])
    return 0 if reply["value"]["passed"] else 1


def run_new(config, name, language):
    """Scaffold a lesson folder and say where it is and what to do next."""
    try:
        folder = scaffold.scaffold(config.lessons_dir, name, language)
    except ValueError as error:
        print("build.py new: {}".format(error), file=sys.stderr)
        return 2
    print("Created {folder}: lesson.md, exercises/softmax/, the package {package}/ (its checker and explorable) and "
          "tests/test_lesson.py, the lesson's own test. Build it alone with 'make build LESSON={name}' ('make serve "
          "LESSON={name}' rebuilds as you save); run its tests and the suite's for it with 'make test-fast "
          "LESSON={name}' as you write (no browser) and 'make test LESSON={name}' before you commit (browsers and "
          "Jupyter too); then make it your own (docs/authoring.md).".format(
              folder=folder, package=package_name(folder.name), name=folder.name))
    return 0


def print_grade(path, result, text):
    """Print what the solution printed (and how much of it was cut), where it raised (file:line), the verdict
    and each check."""
    for item in result["output"]:
        if item["type"] == "truncated":
            print(text["truncated"].format(lines=item["lines"]))
        elif item["type"] != "error":
            print(item.get("text", ""), end="")
    error = result.get("error")
    if error:
        where = "{}:{}".format(path, error["line"]) if error["line"] else str(path)
        print("{}: {}".format(where, error["text"].strip().splitlines()[-1]))
    if result.get("stopped"):
        print("{}: the solution raised KeyboardInterrupt (what Stop raises in the page), so it was not checked; "
              "remove what raises it".format(path))
    print(text["exercise_passed"] if result["passed"] else text["exercise_failed"])
    for item in result["results"]:
        print(("✓ " if item["ok"] else "✗ ") + item["message"])


def main(argv=None):
    """Entry point: parse arguments and dispatch to a command."""
    args = parser().parse_args(argv)
    try:
        config = config_from(args)
    except ValueError as error:
        print("build.py {}: --lesson: {}".format(args.command or "build", error), file=sys.stderr)
        return 2
    if args.command == "serve":
        return run_serve(config, args.port, not args.no_watch)
    if args.command == "grade":
        strings, _ = load_strings(config.root / "site")
        return run_grade(config, args, strings)
    if args.command == "new":
        return run_new(config, args.name, args.language)
    return run_build(config)
