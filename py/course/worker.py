"""The one way into Python: the browser worker and the build hand every request to a Handler.

A request is a JSON-ready dict; the browser worker passes on the page's messages unchanged
(fields the handler does not read, such as "id", are ignored):
    {"type": "init", "label": str, "packages": [str], "language": str}
                                                          fresh namespace; cells are "<label> N" in tracebacks;
                                                          course.numbers writes in `language` (default "en")
    {"type": "run", "cell": id, "code": str}              run a cell in the shared namespace (awaited)
    {"type": "check", "code": str, "checker": str}        grade a solution (course.exercise.grade)
    {"type": "call", "name": "module:function", "args": {}}   call a py/ function (course.explorables.call)
    {"type": "stop"}                                      ask a running loop to end between steps
    {"type": "release", "codes": [str]}                   unbind what these cells bind, before a Run all
                                                          runs them (course.runner.Session.release)
    {"type": "glued"}                                     the values cells recorded with glue()

The reply is {"ok": True, "value": ...}, or {"ok": False, "error": {"type", "message", "text"}}
when the request itself failed (unknown type, a missing field, a called function that raised).
A cell that raises is not a failed request: its value is {"ok": False, "output": [...], "error":
{"type", "message", "text", "frames", "line"}} (course.runner.describe_error), where "line" is the
line of the cell in which it raised.

Runs on Python 3.8 and later.
"""

import importlib
import json
import sys

from course import control, glue, numbers, runner


class Handler:
    """Answers requests for one page (or one lesson at build time): one namespace, one output receiver."""

    def __init__(self, send=None):
        self._send = send
        self.session = runner.Session(send=send)
        self._now = {"init": self._init, "check": self._check, "call": self._call, "stop": self._stop,
                     "glued": self._glued, "release": self._release}

    async def handle(self, request):
        """Answer one request, awaiting the cell when it runs one."""
        if isinstance(request, dict) and request.get("type") == "run":
            try:
                code = _field(request, "code", str)
                return {"ok": True, "value": await self.session.run(_field(request, "cell", (int, str)), code)}
            except BaseException as error:  # a bad request, or Stop landing between cells: the page needs a reply
                return _failed(error)
        return self.handle_now(request)

    def handle_now(self, request):
        """Answer a request that awaits nothing (all but run); safe while a cell awaits between steps."""
        try:
            kind = _field(request, "type", str) if isinstance(request, dict) else None
            answer = self._now.get(kind)
            if answer is None:
                raise ValueError("unknown request {!r} (known: {})".format(
                    kind, ", ".join(sorted(set(self._now) | {"run"}))))
            return {"ok": True, "value": answer(request)}
        except BaseException as error:  # whatever a called function raises is the reply, never a crash
            return _failed(error)

    async def handle_json(self, text):
        """handle() for a request and a reply written as JSON text (how the worker passes them)."""
        return _encode(await self.handle(_decode(text)))

    def handle_now_json(self, text):
        """handle_now() for a request and a reply written as JSON text."""
        return _encode(self.handle_now(_decode(text)))

    def _init(self, request):
        self.session = runner.Session(send=self._send, cell_label=_field(request, "label", str))
        language = request.get("language", "en")
        if language not in numbers.formats():
            raise ValueError("an 'init' request names the language {!r}, which has no number format (known: {})".format(
                language, ", ".join(sorted(numbers.formats()))))
        numbers.set_language(language)
        for name in request.get("packages", []):
            importlib.import_module(name)  # importing NumPy is slow in WebAssembly: now, not in the first cell
        return {"python": sys.version.split()[0]}

    def _check(self, request):
        from course.exercise import grade
        return grade(_field(request, "code", str), _field(request, "checker", str))

    def _call(self, request):
        from course.explorables import call
        return call(_field(request, "name", str), request.get("args") or {})

    def _stop(self, request):
        control.request_stop()

    def _release(self, request):
        codes = _field(request, "codes", list)
        if not all(isinstance(code, str) for code in codes):
            raise ValueError("a 'release' request lists its cells' code as strings")
        return self.session.release(codes)

    def _glued(self, request):
        return glue.glued()


def _field(request, name, kinds):
    """request[name], which must be of type `kinds`; a clear error otherwise."""
    value = request.get(name)
    if not isinstance(value, kinds) or isinstance(value, bool):
        raise ValueError("a {!r} request needs the field {!r}".format(request.get("type"), name))
    return value


def _failed(error):
    """The reply for a request that failed: the error as data, its traceback cut to nothing of ours."""
    data = runner.describe_error(error, lambda filename: None)
    return {"ok": False, "error": {"type": data["type"], "message": data["message"], "text": data["text"]}}


def _decode(text):
    """The request in `text`, or None (an unknown request) if it is not JSON."""
    try:
        return json.loads(text)
    except ValueError:
        return None


def _encode(reply):
    """The reply as JSON text; a value that JSON cannot hold becomes a failed reply."""
    try:
        return json.dumps(reply)
    except (TypeError, ValueError) as error:
        return json.dumps(_failed(TypeError("the reply cannot be sent as JSON ({})".format(error))))
