"""The page's run queue (site/page/scheduler.js) under Node's own test runner, so `make test` covers it."""

import shutil
import subprocess

import pytest

from support import ROOT


def test_the_run_queue_passes_its_node_tests():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed for the front end's unit tests (tests/js/); install Node >= 20")
    done = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout and "# pass 0" not in done.stdout
