"""Run notebook cells in one shared namespace and describe what they printed.

The same code runs at build time in CPython and in the browser's Pyodide
worker, so a cell's output is produced by one mechanism in both places and
the page can show the build-time output until Python has loaded.

An output is a list of JSON-ready items:
    {"type": "stream", "name": "stdout" | "stderr", "text": str}
    {"type": "error", "text": str}          a traceback trimmed to cell frames, with "explanation": str
                                            when course.explain has sentences for it
    {"type": "truncated", "lines": int}     output past the limit was dropped
    {"type": "display", "mime": str, "data": str}   from course.display
    {"type": "progress", "epoch": int, "loss": float, ...}   the latest state of a long loop

Runs on Python 3.8 and later.
"""

import ast
import gc
import json
import linecache
import math
import numbers
import sys
import time
import types

from course import control, wheels

MAX_LINES = 1000
MAX_CHARS = 100000
FLUSH_SECONDS = 0.05
FLUSH_CHARS = 8192
FOLD_PERIOD = 4  # mutual recursion through up to this many frames folds too
FOLD_REPEATS = 3  # a block of frames seen this many times in a row is shown once, with a count


class OutputSink:
    """Collects a cell's output, passes it on in batches and cuts it off past a limit."""

    def __init__(self, send=None, max_lines=MAX_LINES, max_chars=MAX_CHARS):
        self.items = []
        self._send = send
        self._max_lines = max_lines
        self._max_chars = max_chars
        self._lines = 0
        self._chars = 0
        self._dropped_newlines = 0
        self._dropped_partial = False
        self._dropping = False
        self._pending = []
        self._last_flush = time.monotonic()

    def write(self, name, text):
        """Record text printed on stream `name`, dropping what is past the limit."""
        if not text:
            return
        if self._dropping:
            self._drop(text)
            return
        room_chars = self._max_chars - self._chars
        room_lines = self._max_lines - self._lines
        kept = _head(text, room_lines, room_chars)
        if kept:
            self._lines += kept.count("\n")
            self._chars += len(kept)
            self._add({"type": "stream", "name": name, "text": kept})
        if len(kept) < len(text):
            self._dropping = True
            self._drop(text[len(kept):])
        if time.monotonic() - self._last_flush > FLUSH_SECONDS or self._pending_chars() > FLUSH_CHARS:
            self.flush()

    def add(self, item):
        """Record a non-stream item (an error or a display)."""
        self._add(item)
        self.flush()

    def set_progress(self, item):
        """Replace the cell's progress item (there is at most one) where it first appeared, as the page keeps
        its bar, and pass it on at once."""
        shown = [index for index, each in enumerate(self.items) if each["type"] == "progress"]
        if shown:
            self.items[shown[0]] = item
        else:
            self.items.append(item)
        self._pending = [each for each in self._pending if each["type"] != "progress"] + [item]
        self.flush()

    def close(self):
        """Record the truncation notice, if any, and pass on everything left."""
        if self._dropping:
            lines = self._dropped_newlines + (1 if self._dropped_partial else 0)
            self._add({"type": "truncated", "lines": lines})
        self.flush()
        return _merge(self.items)

    def flush(self):
        """Pass the pending items on to the live receiver, if there is one. Never raises: it runs on the error
        path too, and what the receiver refused still reaches the page in the cell's final output."""
        self._last_flush = time.monotonic()
        pending, self._pending = self._pending, []
        if self._send is not None and pending:
            try:
                self._send(_merge(pending))
            except Exception:  # a receiver that fails (the page gone, a value it cannot read) loses only the live view
                pass

    def _drop(self, text):
        self._dropped_newlines += text.count("\n")
        self._dropped_partial = not text.endswith("\n")

    def _add(self, item):
        self.items.append(item)
        self._pending.append(item)

    def _pending_chars(self):
        return sum(len(item.get("text", "")) for item in self._pending)


def _head(text, max_lines, max_chars):
    """The longest start of text within both limits."""
    if max_lines <= 0 or max_chars <= 0:
        return ""
    text = text[:max_chars]
    end = -1
    for _ in range(max_lines):
        end = text.find("\n", end + 1)
        if end < 0:
            return text
    return text[:end + 1]


def _merge(items):
    """Join consecutive stream items of the same stream."""
    merged = []
    for item in items:
        last = merged[-1] if merged else None
        if (last is not None and item["type"] == "stream" and last["type"] == "stream"
                and last["name"] == item["name"]):
            merged[-1] = dict(last, text=last["text"] + item["text"])
        else:
            merged.append(dict(item))
    return merged


class StreamWriter:
    """A text file object that writes into an OutputSink."""

    def __init__(self, sink, name):
        self._sink = sink
        self._name = name

    def write(self, text):
        self._sink.write(self._name, str(text))
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

    @property
    def encoding(self):
        return "utf-8"


_current_sink = None


def display(item):
    """Add a display item to the output of the cell running now; False when no cell is running."""
    if _current_sink is None:
        return False
    _current_sink.add(_sendable(item, "display"))
    return True


def progress(state):
    """Show (or update) the running cell's progress bar: {label, epoch, epochs, step, steps, loss, ...}."""
    if _current_sink is not None:
        _current_sink.set_progress(_sendable(dict(state, type="progress"), "progress"))


def _sendable(item, what):
    """`item` as plain JSON (see _plain); a TypeError, raised in the cell that made it, for a value JSON cannot
    hold, so the page shows the cell's error at its line and the channel to the page stays whole."""
    item = _plain(item)
    try:
        json.dumps(item, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise TypeError("a {} value cannot be shown on the page ({})".format(what, error)) from None
    return item


def _plain(value):
    """`value` with NumPy scalars (and other numbers) as Python numbers and non-finite numbers as text ("nan",
    "inf", "-inf"), in lists, tuples and dicts too; anything else is left for the JSON check."""
    if isinstance(value, dict):
        return {key: _plain(each) for key, each in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(each) for each in value]
    if isinstance(value, (bool, str)) or value is None:
        return value
    if hasattr(value, "item") and getattr(value, "shape", None) == ():  # a NumPy scalar or 0-d array
        value = value.item()
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        value = float(value)
        return value if math.isfinite(value) else repr(value)
    return value


class Session:
    """One namespace shared by the cells of a page, run in page order."""

    def __init__(self, send=None, cell_label="cell"):
        self.namespace = {"__name__": "__main__", "__builtins__": __builtins__}
        self.cell_label = cell_label
        self._send = send
        self._cells = {}

    def release(self, sources):
        """Unbind the names the cells `sources` bind at their top level (assignments, imports, defs, for and with
        targets), then collect: what a Run all does before its first cell, so the previous run's arrays are freed
        before the new ones are made (Pyodide's memory keeps its peak for good). Sources that do not parse unbind
        nothing; names no listed cell binds (a cell left out of Run all, the learner's own) stay. Returns the names."""
        names = set()
        for source in sources:
            try:
                tree = ast.parse(source)
            except SyntaxError:
                continue
            names.update(_bound_names(tree.body))
        released = sorted(name for name in names if name in self.namespace and not name.startswith("__"))
        for name in released:
            del self.namespace[name]
        gc.collect()
        return released

    def filename(self, cell_id):
        """The file name a cell's frames carry in tracebacks."""
        return "<{} {}>".format(self.cell_label, cell_id)

    async def run(self, cell_id, source):
        """Run one cell; return {"ok": bool, "output": [items]}, plus "error" (see describe_error) if it raised
        and "stopped" if Stop ended it: a loop that saw the stop request ended between two steps (the cell
        returned, "ok" stays True), or a KeyboardInterrupt came. A KeyboardInterrupt while no stop request
        had reached Python may be the learner's own `raise KeyboardInterrupt` (or the page's interrupt that
        outran its request): its "error" is kept, out of the output, for the page, which knows whether it
        asked to stop, to show."""
        sink = OutputSink(self._send)
        filename = self.filename(cell_id)
        self._cells[filename] = cell_id
        error_data = interrupt = None
        stopped = False
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = StreamWriter(sink, "stdout"), StreamWriter(sink, "stderr")
        global _current_sink
        _current_sink = sink
        control.clear()
        modules = dict(sys.modules)
        try:
            linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
            body, last = _compile(source, filename)
            result = eval(body, self.namespace)
            if isinstance(result, types.CoroutineType):
                await result
            if last is not None:
                value = eval(last, self.namespace)
                if isinstance(value, types.CoroutineType):
                    value = await value
                if value is not None:
                    print(repr(value))
        except KeyboardInterrupt as error:  # Stop, most likely: the page says so; a traceback would be noise
            stopped = True
            interrupt = None if control.stop_requested() else describe_error(error, self._cells.get, cell_id)
        except BaseException as error:  # whatever the learner's code raises is output, even SystemExit
            error_data = describe_error(error, self._cells.get, cell_id)
            sink.add(error_item(error, error_data, self.namespace))
        finally:
            sys.stdout, sys.stderr = saved
            _current_sink = None
        removed = _put_back_modules(modules)
        if removed and error_data is None and not stopped:
            error_data = _modules_removed(removed)
            sink.add({"type": "error", "text": error_data["text"]})
        done = {"ok": error_data is None and not stopped, "output": sink.close()}
        if error_data is not None:
            done["error"] = error_data
        if stopped or control.heard():
            done["stopped"] = True
        if stopped and interrupt is not None:
            done["error"] = interrupt
        return done


# What Python and the page's runtime cannot run on without: a cell that takes them out of sys.modules (a
# `sys.modules.clear()`) would leave the worker unable to answer, its cell "running" until Stop restarts Python.
RUNTIME_MODULES = frozenset(sys.builtin_module_names) | {"course", "pyodide", "_pyodide", "js", "asyncio", "json",
                                                       "encodings", "importlib"}


def _put_back_modules(before):
    """After a cell that took the runtime's modules (RUNTIME_MODULES and theirs) out of sys.modules, put back every
    module it removed; their names. A cell that removed only modules of its own is left as it is: []."""
    removed = [name for name in before if name not in sys.modules]
    if not any(name.split(".")[0] in RUNTIME_MODULES for name in removed):
        return []
    for name in removed:
        sys.modules[name] = before[name]
    return removed


def _modules_removed(names):
    """The error of a cell that removed the runtime's own modules from sys.modules."""
    names = sorted(names, key=lambda name: (name.startswith("_"), name))  # the ones a learner knows first
    shown = ", ".join(names[:3]) + (", …" if len(names) > 3 else "")
    message = ("this cell removed Python's own modules from sys.modules ({}); they were put back, "
               "but remove only your own modules from it").format(shown)
    return {"type": "RuntimeError", "message": message, "text": "RuntimeError: {}\n".format(message),
            "frames": [], "line": None}


def _bound_names(statements):
    """The names a module's top-level statements bind (not inside functions or classes; inside if, for, while,
    with and try, which run at the top level too)."""
    names = set()
    for statement in statements:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(statement.name)
            continue
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in statement.names if alias.name != "*")
            continue
        targets = []
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
            targets = [statement.target]
        elif isinstance(statement, (ast.With, ast.AsyncWith)):
            targets = [item.optional_vars for item in statement.items if item.optional_vars is not None]
        for target in targets:
            names.update(node.id for node in ast.walk(target)
                         if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store))
        for field in ("body", "orelse", "finalbody"):
            names.update(_bound_names(getattr(statement, field, None) or []))
        for handler in getattr(statement, "handlers", None) or []:
            if handler.name:
                names.add(handler.name)
            names.update(_bound_names(handler.body))
    return names


def _compile(source, filename):
    """Compile a cell as statements plus, notebook-style, a final expression to show."""
    flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    tree = ast.parse(source, filename, "exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last_expr = ast.Expression(tree.body.pop().value)
        last = compile(last_expr, filename, "eval", flags)
    return compile(tree, filename, "exec", flags), last


def describe_error(error, cell_of, current=None):
    """An exception as data: {"type", "message", "text", "frames", "line"}.

    cell_of(filename) names the cell (or solution) a frame belongs to, None for library
    frames, which are left out. "text" is the traceback the page shows, "frames" lists
    {"cell", "line"} outermost first, and "line" is the innermost line in cell `current`
    (None if no frame of it is left).
    """
    frames = _learner_frames(error, cell_of)
    name = type(error).__name__
    module = type(error).__module__
    if module not in ("builtins", "__main__"):
        name = "{}.{}".format(module, name)
    message = error.msg if isinstance(error, SyntaxError) and _is_learners_syntax(error, cell_of) else _text_of(error)
    lines = ["Traceback (most recent call last):\n"] if frames and not isinstance(error, SyntaxError) else []
    folded = _fold(frames)
    for block, more in folded:
        for filename, line, function in block:
            where = ", in {}".format(function) if function else ""
            lines.append('  File "{}", line {}{}\n'.format(filename, line, where))
            text = linecache.getline(filename, line).strip()
            if text:
                lines.append("    {}\n".format(text))
        if more:
            size = "line" if len(block) == 1 else "{} lines".format(len(block))
            lines.append("  [Previous {} repeated {} more times]\n".format(size, more))
    lines.append("{}: {}\n".format(name, message) if message else "{}\n".format(name))
    missing = wheels.not_installed(error)
    if missing:  # one sentence, not a traceback through the import machinery or Pyodide's advice to call micropip
        lines, message = [missing + "\n"], missing
    in_current = [line for filename, line, _ in frames if cell_of(filename) == current]
    return {"type": name, "message": message, "text": "".join(lines),
            "frames": [{"cell": cell_of(filename), "line": line} for block, _ in folded for filename, line, _ in block],
            "line": in_current[-1] if current is not None and in_current else None}


def error_item(error, data, namespace=None):
    """The output item of an error described as `data` (describe_error): its traceback and, when course.explain
    has one, the sentences that explain it to a beginner, in the page's language."""
    item = {"type": "error", "text": data["text"]}
    if isinstance(error, Exception):
        from course.explain import explain  # only when a cell raised: a clean page never loads it

        try:
            explanation = explain(error, namespace)
        except Exception:  # the explanation is a help; it must never hide the error itself
            explanation = None
        if explanation:
            item["explanation"] = explanation
    return item


def _text_of(error):
    """str(error), or a sentence saying it could not be had: an exception's own __str__ may raise too."""
    try:
        return str(error)
    except BaseException as failure:  # the learner's __str__, whatever it raises, must not break the error path
        return "(its message could not be shown: {} in its __str__)".format(type(failure).__name__)


def _fold(frames):
    """The frames as [(block, more)]: a block repeated in a row (unbounded recursion) is kept once, with a count."""
    folded, start = [], 0
    while start < len(frames):
        for period in range(1, FOLD_PERIOD + 1):
            block = frames[start:start + period]
            repeats = 1
            while frames[start + repeats * period:start + (repeats + 1) * period] == block:
                repeats += 1
            if len(block) == period and repeats >= FOLD_REPEATS:
                folded.append((block, repeats - 1))
                start += repeats * period
                break
        else:
            folded.append((frames[start:start + 1], 0))
            start += 1
    return folded


def _learner_frames(error, cell_of):
    """(filename, line, function) of each frame in the learner's code, outermost first."""
    frames = []
    tb = error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if cell_of(code.co_filename) is not None:
            frames.append((code.co_filename, tb.tb_lineno, code.co_name))
        tb = tb.tb_next
    if _is_learners_syntax(error, cell_of):
        frames.append((error.filename, error.lineno, None))
    return frames


def _is_learners_syntax(error, cell_of):
    """Whether error is a SyntaxError in the learner's own code (its location is then a frame of its own)."""
    return isinstance(error, SyntaxError) and bool(error.filename) and cell_of(error.filename) is not None

