"""Grade a learner's solution: run their code, find their function, hand it to the exercise's checker.

The same function grades in the browser worker, at build time (reference and
known-wrong solutions) and from `build.py grade`. It never raises: whatever the
learner's code does becomes a failed result with one clear sentence.

A checker is a module with
    FUNCTION = "multi_head"             the name the learner must define
    MESSAGES = {...}                    its sentences, in the lesson's language
    def check(function) -> [ {"ok": bool, "message": str}, ... ]
A checker that serves several editions of its lesson (lesson.md and lesson.en.md) gives
FUNCTION and MESSAGES per language instead, {"es": ..., "en": ...}, and writes its own
sentences in course.numbers.current_language(), the language of the page that asks.
Code is graded as written: a learner who names the function in another edition's language is told so. Only
the build renames, before it grades an edition's known-wrong solutions (lesson.md's files; see
coursebuild.blocks.exercise.as_graded), which is why it reads FUNCTION from the checker's file as written.
The result is JSON-ready: {"passed": bool, "results": [...], "output": [...]}, with "function" (the
name looked for) once the learner's code has run, plus
"error" (course.runner.describe_error) when the learner's code raised.
"""

import importlib
import linecache
import sys

from .numbers import current_language
from .runner import OutputSink, StreamWriter, describe_error


def grade(code, checker_name, label="solution"):
    """Run `code`, then the checker named `checker_name` on the function it defines."""
    checker = importlib.import_module(checker_name)
    wanted, messages = function_name(checker), checker_messages(checker)
    namespace = {"__name__": "__main__"}
    sink = OutputSink()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = StreamWriter(sink, "stdout"), StreamWriter(sink, "stderr")
    filename = "<{}>".format(label)
    try:
        try:
            linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
            exec(compile(code, filename, "exec"), namespace)
        except KeyboardInterrupt:  # Stop pressed: no verdict, and no attempt to blame on the learner
            return _stopped(sink)
        except BaseException as error:  # the learner's code, whatever it raises, is a failed result
            data = describe_error(error, lambda name: label if name == filename else None, label)
            return _failed(messages["code_raised"].format(error=data["text"].strip().splitlines()[-1]), sink,
                           data)
        function = namespace.get(wanted)
        if not callable(function):
            return _failed(messages["no_function"].format(name=wanted), sink)
        try:
            results = checker.check(function)
        except KeyboardInterrupt:
            return _stopped(sink)
        except BaseException as error:  # a checker bug must not break the page either
            results = [{"ok": False, "message": messages["checker_failed"].format(error=repr(error))}]
    finally:
        sys.stdout, sys.stderr = saved
    return {"passed": bool(results) and all(result["ok"] for result in results), "results": results,
            "output": sink.close(), "function": wanted}


def function_name(checker, language=None):
    """The name the learner defines for `checker`, in `language` (default: the page's)."""
    name = checker.FUNCTION
    return name if isinstance(name, str) else name[language or current_language()]


def checker_messages(checker, language=None):
    """The sentences course.exercise formats for `checker`, in `language` (default: the page's)."""
    messages = checker.MESSAGES
    return messages if "code_raised" in messages else messages[language or current_language()]


def _failed(message, sink, error=None):
    """A failed result; when the learner's code raised, its traceback is output and its data is "error"."""
    output = sink.close()
    failed = {"passed": False, "results": [{"ok": False, "message": message}], "output": output}
    if error is not None:
        output.append({"type": "error", "text": error["text"]})
        failed["error"] = error
    return failed


def _stopped(sink):
    """No verdict: the learner pressed Stop while the solution ran."""
    return {"passed": False, "stopped": True, "results": [], "output": sink.close()}
