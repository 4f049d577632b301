"""The command line: `build`, `serve`. Defaults live here and nowhere else."""

import argparse
import os
import sys
import threading
from pathlib import Path

from . import serve as serve_module
from .errors import BuildFailed, LessonError
from .site import Config, build

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_PORT = 8000


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
    commands = top.add_subparsers(dest="command")
    commands.add_parser("build", help="build _site/ (the default command)")
    serve = commands.add_parser("serve", help="build, serve on 127.0.0.1 and rebuild on change")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default: %(default)s; 0 picks one)")
    serve.add_argument("--no-watch", action="store_true", help="do not rebuild when files change")
    return top


def config_from(args):
    """A build Config from parsed arguments."""
    return Config(root=ROOT, lessons_dir=Path(args.lessons), out_dir=Path(args.out), cache_dir=Path(args.cache),
                  pyodide_dir=args.pyodide_dir, runtime=args.runtime)


def run_build(config):
    """Build once; print every error and return an exit status."""
    try:
        build(config)
    except BuildFailed as failure:
        for error in failure.errors:
            print(error, file=sys.stderr)
        print("Build failed with {} error(s); {} was left as it was.".format(
            len(failure.errors), config.out_dir), file=sys.stderr)
        return 1
    except LessonError as error:
        print(error, file=sys.stderr)
        return 1
    return 0


def run_serve(config, port, watch):
    """Build, then serve; rebuild when lessons, front end or library change."""
    status = run_build(config)
    if status != 0 and not config.out_dir.exists():
        return status
    server = serve_module.make_server(config.out_dir, port)
    host, port = server.server_address[:2]
    print("Serving {} at http://{}:{}/ (Ctrl+C stops)".format(config.out_dir, host, port), flush=True)
    if watch:
        thread = threading.Thread(target=serve_module.watch, args=(config.root, lambda: run_build(config)),
                                  daemon=True)
        thread.start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def main(argv=None):
    """Entry point: parse arguments and dispatch to a command."""
    args = parser().parse_args(argv)
    config = config_from(args)
    if args.command == "serve":
        return run_serve(config, args.port, not args.no_watch)
    return run_build(config)
