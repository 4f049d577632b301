"""The cell runner shared by the build and the browser worker."""

import asyncio
import json
import re
import sys
import threading

from course.runner import MAX_LINES, Session


def run(session, cell_id, code):
    """Run a cell on a thread of its own: the browser tests' Playwright keeps an event loop running here."""
    result = {}
    thread = threading.Thread(target=lambda: result.update(value=asyncio.run(session.run(cell_id, code))))
    thread.start()
    thread.join()
    return result["value"]


def text(result):
    return "".join(item.get("text", "") for item in result["output"])


def test_cells_share_one_namespace_in_order():
    session = Session()
    run(session, 1, "x = 20")
    assert text(run(session, 2, "print(x + 1)")) == "21\n"


def test_a_final_expression_is_shown_like_a_notebook():
    assert text(run(Session(), 1, "a = 3\na * 2")) == "6\n"
    assert text(run(Session(), 1, "None")) == ""


def test_traceback_keeps_only_cell_frames_with_cell_line_numbers():
    session = Session(cell_label="celda")
    run(session, 1, "def f(n):\n    return n / 0\n")
    result = run(session, 2, "import json\ny = 1\nf(y)")
    assert result["ok"] is False
    trace = result["output"][0]["text"]
    assert trace == ('Traceback (most recent call last):\n'
                     '  File "<celda 2>", line 3, in <module>\n    f(y)\n'
                     '  File "<celda 1>", line 2, in f\n    return n / 0\n'
                     'ZeroDivisionError: division by zero\n')


def test_library_frames_are_hidden_from_tracebacks():
    trace = text(run(Session(), 1, "import json\njson.loads('{')"))
    assert "json/decoder.py" not in trace and "<cell 1>" in trace
    assert trace.splitlines()[-1].startswith("json.decoder.JSONDecodeError:")


def test_a_flood_of_output_is_cut_with_a_count_of_what_was_dropped():
    result = run(Session(), 1, "for i in range(100000):\n    print(i)")
    shown = result["output"][0]["text"]
    assert shown.count("\n") == MAX_LINES
    assert result["output"][-1] == {"type": "truncated", "lines": 100000 - MAX_LINES}


def test_output_streams_to_the_receiver_in_batches_while_the_cell_runs():
    batches = []
    session = Session(send=batches.append)
    run(session, 1, "import time\nprint('a')\ntime.sleep(0.1)\nprint('b')")
    assert len(batches) >= 2
    assert "".join(item["text"] for batch in batches for item in batch) == "a\nb\n"


def test_stdout_and_stderr_stay_apart_and_in_order():
    result = run(Session(), 1, "import sys\nprint('o')\nprint('e', file=sys.stderr)\nprint('o2')")
    assert [(item["name"], item["text"]) for item in result["output"]] == [
        ("stdout", "o\n"), ("stderr", "e\n"), ("stdout", "o2\n")]


def test_top_level_await_runs():
    assert text(run(Session(), 1, "import asyncio\nawait asyncio.sleep(0)\nprint('after')")) == "after\n"


def test_a_syntax_error_names_the_cell_and_line():
    trace = text(run(Session(), 4, "x = 1\nif x\n    pass"))
    assert '<cell 4>", line 2' in trace and "SyntaxError" in trace


def test_exit_in_a_cell_is_reported_not_obeyed():
    result = run(Session(), 1, "exit()")
    assert result["ok"] is False and "SystemExit" in text(result)


def test_a_recursion_error_traceback_is_folded_with_a_count_of_the_repeats():
    result = run(Session(), 1, "import sys\ndef down(n):\n    return down(n + 1)\n\ndown(0)")
    trace = result["output"][0]["text"]
    assert trace.count('  File "<cell 1>", line 3, in down\n') == 1
    repeated = re.search(r"\[Previous line repeated (\d+) more times\]", trace)
    assert repeated and sys.getrecursionlimit() - 100 < int(repeated.group(1)) + 1 <= sys.getrecursionlimit()
    assert trace.splitlines()[-1] == "RecursionError: maximum recursion depth exceeded"
    assert len(trace.splitlines()) < 10 and len(result["error"]["frames"]) == 2


def test_mutual_recursion_is_folded_as_one_repeating_block():
    result = run(Session(), 1, "def ping(n):\n    return pong(n)\n\ndef pong(n):\n    return ping(n)\n\nping(0)")
    trace = result["output"][0]["text"]
    assert trace.count("in ping\n") <= 2 and trace.count("in pong\n") <= 2  # the block, and where it ended
    assert len(trace.splitlines()) < 14
    assert re.search(r"\[Previous 2 lines repeated \d+ more times\]", trace)
    assert result["error"]["line"] in (2, 5)  # the innermost frame, in ping or in pong


def test_a_frame_that_repeats_twice_is_not_folded():
    result = run(Session(), 1, "def twice(n):\n    return twice(n - 1) if n else 1 / 0\n\ntwice(1)")
    assert result["output"][0]["text"].count("in twice\n") == 2


def test_stop_by_interrupt_ends_the_cell_quietly_and_keeps_what_it_had_done():
    session = Session()
    code = "n = 0\nwhile True:\n    n += 1\n    if n == 1000:\n        raise KeyboardInterrupt  # what Stop raises\n"
    result = run(session, 1, code)
    assert (result["ok"], result.get("stopped")) == (False, True)
    assert [item for item in result["output"] if item["type"] == "error"] == []
    assert text(run(session, 2, "print(n)")) == "1000\n"


def test_a_keyboard_interrupt_no_stop_asked_for_keeps_its_traceback_for_the_page_out_of_the_output():
    result = run(Session(), 1, "raise KeyboardInterrupt")
    assert (result["ok"], result["stopped"], result["error"]["type"]) == (False, True, "KeyboardInterrupt")
    assert '"<cell 1>", line 1' in result["error"]["text"]
    assert result["output"] == []  # the page shows it, unless it had pressed Stop


def test_a_keyboard_interrupt_after_the_stop_request_is_stop_and_carries_no_error():
    result = run(Session(), 1, "from course import control\ncontrol.request_stop()\nraise KeyboardInterrupt")
    assert (result["ok"], result["stopped"], "error" in result) == (False, True, False)


def test_a_loop_that_hears_the_stop_request_makes_its_cell_a_stopped_one_that_returned():
    session = Session()
    result = run(session, 1, "from course import control\ncontrol.request_stop()\nheard = control.stop_requested()")
    assert (result["ok"], result["stopped"]) == (True, True)
    assert "stopped" not in run(session, 2, "x = heard")  # the next cell starts afresh


def test_a_cell_that_clears_sys_modules_ends_with_an_error_and_python_keeps_working():
    session = Session()
    result = run(session, 1, "import sys\nsys.modules.clear()")
    assert result["ok"] is False
    assert result["error"]["message"].startswith("this cell removed Python's own modules from sys.modules (")
    assert [item["type"] for item in result["output"]] == ["error"]
    assert text(run(session, 2, "import json\nprint(json.dumps([1]))")) == "[1]\n"


def test_a_cell_that_removes_its_own_module_from_sys_modules_is_left_alone():
    session = Session()
    code = "import sys, types\nsys.modules['mine'] = types.ModuleType('mine')\ndel sys.modules['mine']"
    assert run(session, 1, code)["ok"] is True


def test_stop_during_a_check_gives_no_verdict_and_blames_nothing():
    from course.exercise import grade
    result = grade("def multi_head(X, Wq, Wk, Wv, Wo, h):\n    raise KeyboardInterrupt\n",
                   "varias_cabezas.checkers.multi_head")
    assert result["stopped"] is True and result["passed"] is False and result["results"] == []


def test_a_progress_bar_stays_where_it_first_appeared_and_shows_its_last_state():
    # The page updates its bar in place; the build's record of the cell must look the same.
    code = ("from course import runner\nprint('before')\nfor epoch in (1, 2):\n"
            "    runner.progress({'epoch': epoch, 'epochs': 2, 'step': epoch, 'steps': 2, 'loss': '0.5'})\n"
            "    print('epoch', epoch)\n")
    output = run(Session(), 1, code)["output"]
    kinds = [item["type"] for item in output]
    assert kinds == ["stream", "progress", "stream"]
    assert output[1]["epoch"] == 2
    assert output[0]["text"] == "before\n" and output[2]["text"] == "epoch 1\nepoch 2\n"


def strict(received):
    """A receiver that reads items as the page does: JSON with no NaN or Infinity, anything else fails."""
    return lambda items: received.extend(json.loads(json.dumps(items, allow_nan=False)))


def run_strictly(code):
    """Run `code` as cell 1 of a fresh session whose receiver is strict; the result, which must be ok, and what the
    receiver got."""
    received = []
    result = run(Session(send=strict(received)), 1, code)
    assert result["ok"] is True, result
    return result, received


def test_the_course_training_loop_with_a_numpy_step_count_runs_and_shows_plain_numbers():
    code = ("import numpy as np\nfrom course.nn.train import train_steps\n"
            "result = await train_steps(lambda i: np.float32(0.5), np.int64(4))\nprint(result['steps'])\n")
    result, received = run_strictly(code)
    bars = [item for item in received if item["type"] == "progress"]
    assert bars and bars[-1]["steps"] == 4 and type(bars[-1]["steps"]) is int
    assert json.dumps(result, allow_nan=False)


def test_numpy_scalars_in_a_progress_item_become_numbers_and_non_finite_values_text():
    code = ("import numpy as np\nfrom course import runner\nrunner.progress({'epoch': np.int32(2), 'epochs': 3, "
            "'loss': float('nan'), 'best': np.float64('-inf'), 'done': np.bool_(True), 'step': np.float32(1.5)})\n")
    result, received = run_strictly(code)
    bar = [item for item in result["output"] if item["type"] == "progress"][0]
    assert bar == {"type": "progress", "epoch": 2, "epochs": 3, "loss": "nan", "best": "-inf", "done": True,
                   "step": 1.5}
    assert received == result["output"]


def test_a_value_the_page_cannot_read_is_an_error_of_the_cell_at_its_line_and_the_next_cell_runs():
    received = []
    session = Session(send=strict(received))
    result = run(session, 1, "from course import runner, display\nx = 1\nrunner.progress({'loss': object()})\n")
    assert result["ok"] is False
    assert result["error"]["type"] == "TypeError" and result["error"]["line"] == 3
    assert "progress value cannot be shown" in result["error"]["message"]
    assert json.dumps(result, allow_nan=False)
    assert text(run(session, 2, "print(x + 1)")) == "2\n"


def test_a_receiver_that_fails_never_breaks_the_cell_or_its_error():
    def refuse(items):
        raise RuntimeError("the page is gone")
    result = run(Session(send=refuse), 1, "print('a')\n1 / 0\n")
    assert result["ok"] is False and result["error"]["type"] == "ZeroDivisionError" and result["error"]["line"] == 2
    assert text(result).startswith("a\n")


def test_an_exception_whose_message_raises_is_still_an_error_of_its_cell_at_its_line():
    code = "class Odd(Exception):\n    def __str__(self):\n        raise ValueError('no')\n\nraise Odd()\n"
    result = run(Session(), 1, code)
    assert result["ok"] is False and result["error"]["type"] == "Odd" and result["error"]["line"] == 5
    assert "could not be shown: ValueError" in result["error"]["message"]


def test_release_unbinds_what_the_listed_cells_bind_and_frees_their_arrays():
    import weakref

    import numpy as np

    session = Session()
    cells = ["import numpy as np\nweights = np.zeros(1000)\nfor step in range(2):\n    pass\n",
             "def train(w):\n    inner = w\n    return inner\nclass Model:\n    pass\nweights[0] = 1\n"
             "import os\ntry:\n    import json as js\nexcept ImportError as missing:\n    pass\nwith open(os.devnull) as f:\n    pass\n"]
    for number, code in enumerate(cells, 1):
        assert run(session, number, code)["ok"], code
    run(session, 3, "mine = 1")  # a cell of the learner's own, not in the Run all
    freed = weakref.ref(session.namespace["weights"])
    assert isinstance(freed(), np.ndarray)
    assert session.release(cells + ["this is not Python"]) == ["Model", "f", "js", "np", "os", "step", "train", "weights"]
    assert freed() is None
    assert session.namespace["mine"] == 1 and "__name__" in session.namespace
    assert [run(session, number, code)["ok"] for number, code in enumerate(cells, 1)] == [True, True]
