"""The request handler the browser worker and the build share (course.worker), in plain CPython."""

import asyncio
import json
import sys
import threading

from test_build import HEADER, build, write_lesson

from course.explorables.engine import recompute
from course.worker import Handler
from coursebuild.lesson import read_lesson
from support import ROOT

EXERCISE = read_lesson(ROOT / "lessons" / "000-varias-cabezas" / "lesson.md")[0].exercises[0]


def on_a_thread(coroutine_function):
    """Run a coroutine on a thread of its own: the browser tests' Playwright keeps an event loop running here."""
    result = {}
    thread = threading.Thread(target=lambda: result.update(value=asyncio.run(coroutine_function())))
    thread.start()
    thread.join()
    return result["value"]


def ask(handler, request):
    """The handler's reply to one request, sent and answered as JSON text, as the browser worker does."""
    return json.loads(on_a_thread(lambda: handler.handle_json(json.dumps(request))))


def started(label="celda"):
    handler = Handler()
    assert ask(handler, {"type": "init", "label": label, "id": 1})["ok"]
    return handler


def text(value):
    return "".join(item.get("text", "") for item in value["output"])


def test_init_answers_with_the_python_version_and_names_the_cells():
    handler = Handler()
    reply = ask(handler, {"type": "init", "id": 3, "label": "клітинка", "packages": ["json"]})
    assert reply == {"ok": True, "value": {"python": sys.version.split()[0]}}
    value = ask(handler, {"type": "run", "cell": 2, "code": "1 / 0"})["value"]
    assert '"<клітинка 2>", line 1' in value["error"]["text"]


def test_init_sets_the_language_course_numbers_writes_in():
    code = "from course.numbers import number\nprint(number(1048576.5, '.1f'))"
    for language, expected in (("uk", "1\u00a0048\u00a0576,5\n"), (None, "1,048,576.5\n")):
        handler = Handler()
        request = {"type": "init", "id": 1, "label": "celda"}
        if language:
            request["language"] = language
        assert ask(handler, request)["ok"]
        assert text(ask(handler, {"type": "run", "cell": 1, "code": code})["value"]) == expected


def test_init_refuses_a_language_without_a_number_format():
    reply = ask(Handler(), {"type": "init", "id": 1, "label": "celda", "language": "xx"})
    assert reply["ok"] is False and "'xx', which has no number format (known: en, es, uk)" in reply["error"]["message"]


def test_cells_share_one_namespace_and_show_a_final_expression():
    handler = started()
    assert ask(handler, {"type": "run", "cell": 1, "code": "x = 20\nprint('set')"})["value"] == {
        "ok": True, "output": [{"type": "stream", "name": "stdout", "text": "set\n"}]}
    assert text(ask(handler, {"type": "run", "cell": 2, "code": "x + 1"})["value"]) == "21\n"


def test_a_cell_error_is_data_with_the_line_in_the_cell_that_raised():
    handler = started()
    ask(handler, {"type": "run", "cell": 1, "code": "def half(n):\n    return n / zero\n"})
    value = ask(handler, {"type": "run", "cell": 2, "code": "y = 1\n\nhalf(y)"})["value"]
    assert value["ok"] is False
    error = value["error"]
    assert (error["type"], error["message"]) == ("NameError", "name 'zero' is not defined")
    assert error["line"] == 3
    assert error["frames"] == [{"cell": 2, "line": 3}, {"cell": 1, "line": 2}]
    assert error["text"] == value["output"][-1]["text"]  # the traceback the page shows
    assert error["text"].splitlines()[-1] == "NameError: name 'zero' is not defined"


def test_a_syntax_error_is_data_with_its_line():
    error = ask(started(), {"type": "run", "cell": 4, "code": "x = 1\nif x\n    pass"})["value"]["error"]
    assert error["type"] == "SyntaxError" and error["line"] == 2
    assert '"<celda 4>", line 2' in error["text"]


def test_check_grades_with_the_exercises_checker():
    handler = started()
    passed = ask(handler, {"type": "check", "code": EXERCISE.solution, "checker": EXERCISE.checker})["value"]
    assert passed["passed"] is True and all(item["ok"] for item in passed["results"])
    wrong = next(iter(EXERCISE.wrong.values()))
    failed = ask(handler, {"type": "check", "code": wrong, "checker": EXERCISE.checker})["value"]
    assert failed["passed"] is False and any(not item["ok"] for item in failed["results"])


def test_a_solution_that_raises_reports_its_line_as_data():
    code = "import numpy as np\n\nscale = 1\nscale = scale / 0\n"
    value = ask(started(), {"type": "check", "code": code, "checker": EXERCISE.checker})["value"]
    assert value["passed"] is False
    assert (value["error"]["type"], value["error"]["line"]) == ("ZeroDivisionError", 4)


def test_call_returns_what_the_py_function_returns():
    args = {"module": "varias_cabezas.explorables.rule_heads", "values": {"map": 4, "row": 4}, "language": "es"}
    reply = ask(started(), {"type": "call", "name": "course.explorables.engine:recompute", "args": args})
    assert reply["ok"] and reply["value"] == json.loads(json.dumps(recompute(**args)))


def test_a_call_that_fails_is_a_failed_reply_with_the_error_as_data():
    reply = ask(started(), {"type": "call", "name": "os:system", "args": {"command": "echo no"}})
    assert reply["ok"] is False
    assert reply["error"]["type"] == "ValueError" and "only functions of the course library" in reply["error"]["message"]
    assert reply["error"]["text"] == "ValueError: " + reply["error"]["message"] + "\n"


def test_a_reply_json_cannot_carry_is_a_failed_reply_not_a_crash():
    reply = ask(started(), {"type": "call", "name": "course.display:heatmap",
                                "args": {"matrix": [[0.5]], "rows": ["a"], "cols": ["b"]}})
    assert reply["ok"] is False and "cannot be sent as JSON" in reply["error"]["message"]


def test_an_unknown_or_malformed_request_says_what_is_known():
    handler = started()
    unknown = ask(handler, {"type": "runn"})
    assert unknown["ok"] is False and "known: call, check, glued, init, release, run, stop" in unknown["error"]["message"]
    missing = ask(handler, {"type": "run", "cell": 1})
    assert missing["ok"] is False and "'code'" in missing["error"]["message"]
    assert json.loads(handler.handle_now_json("not json"))["ok"] is False


def test_glued_returns_the_values_cells_recorded():
    handler = started()
    ask(handler, {"type": "run", "cell": 1, "code": "from course.glue import glue\nglue('total', 4 * 512 ** 2)"})
    assert ask(handler, {"type": "glued"})["value"]["total"] == 1048576


def test_stop_ends_a_loop_between_steps_and_keeps_the_namespace():
    handler = started()
    loop = ("import asyncio\nfrom course import control\nsteps = 0\n"
            "while not control.stop_requested():\n    steps += 1\n    await asyncio.sleep(0)\n")

    async def run_then_stop():
        running = asyncio.ensure_future(handler.handle({"type": "run", "cell": 1, "code": loop}))
        while "steps" not in handler.session.namespace or handler.session.namespace["steps"] < 5:
            await asyncio.sleep(0)
        stopped = handler.handle_now({"type": "stop"})  # the stop request, answered at once
        return stopped, await asyncio.wait_for(running, 10)

    stopped, ran = on_a_thread(run_then_stop)
    assert stopped == {"ok": True, "value": None}
    assert ran == {"ok": True, "value": {"ok": True, "output": [], "stopped": True}}  # ended by Stop, namespace kept
    assert int(text(ask(handler, {"type": "run", "cell": 2, "code": "steps"})["value"])) >= 5


def test_a_new_cell_forgets_an_earlier_stop():
    handler = started()
    ask(handler, {"type": "stop"})
    code = "from course import control\nprint(control.stop_requested())"
    assert text(ask(handler, {"type": "run", "cell": 1, "code": code})["value"]) == "False\n"


def test_the_build_names_the_line_of_the_cell_that_raised_from_the_error_data(tmp_path, capsys):
    write_lesson(tmp_path, HEADER + "```{code-cell} ipython3\ndef half(n):\n    return n / zero\n```\n\n"
                 "```{code-cell} ipython3\ny = 1\nhalf(y)\n```\n")
    status, err = build(tmp_path, capsys)
    assert status == 1
    assert "lesson.md:15: cell 2 raised NameError: name 'zero' is not defined" in err


def test_release_unbinds_the_names_of_the_cells_it_lists_and_refuses_code_that_is_not_text():
    handler = started()
    ask(handler, {"type": "run", "cell": 1, "code": "big = list(range(10))\nkept = 1"})
    assert ask(handler, {"type": "release", "codes": ["big = [0]\n"]}) == {"ok": True, "value": ["big"]}
    assert text(ask(handler, {"type": "run", "cell": 2, "code": "print('big' in dir(), kept)"})["value"]) == "False 1\n"
    refused = ask(handler, {"type": "release", "codes": [1]})
    assert refused["ok"] is False and "as strings" in refused["error"]["message"]
