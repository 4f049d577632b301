"""The route to a published site: .ci/run, the engine policy it sets, and the GitHub Pages workflow that runs it.

GitHub's runners cannot be reached from here, so the workflow is checked as far as it can be: actionlint, and the
order of its steps read from the YAML.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import engines
import pytest
import yaml

from support import ROOT

CI_RUN = ROOT / ".ci" / "run"
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"


@pytest.mark.parametrize("asked", [None, "0"])
def test_a_missing_engine_is_skipped_with_its_reason_where_only_the_generic_ci_variable_is_set(
        monkeypatch, tmp_path, asked):
    monkeypatch.setenv("CI", "true")  # what every CI service sets, GitHub's runners included
    if asked is None:
        monkeypatch.delenv(engines.ALL_ENGINES, raising=False)
    else:
        monkeypatch.setenv(engines.ALL_ENGINES, asked)
    monkeypatch.setenv("PATH", str(tmp_path))  # no firefox-esr on it
    with pytest.raises(pytest.skip.Exception, match="firefox-esr is not installed"):
        engines.require("firefox")


def test_a_missing_engine_fails_where_every_engine_is_asked_for(monkeypatch, tmp_path):
    monkeypatch.setenv(engines.ALL_ENGINES, "1")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(pytest.fail.Exception, match="firefox-esr is not installed.*COURSE_ALL_ENGINES=1"):
        engines.require("firefox")


def test_an_installed_engine_runs_where_every_engine_is_asked_for(monkeypatch):
    monkeypatch.setenv(engines.ALL_ENGINES, "1")
    assert engines.require("chromium") is None


def test_ci_run_asks_for_every_engine_and_leaves_the_runtime_to_its_environment():
    lines = [line.strip() for line in CI_RUN.read_text().splitlines()]
    assert lines.index("export {}=1".format(engines.ALL_ENGINES)) < lines.index("make test")
    # Here the official NumPy wheel cannot be downloaded, so .ci/run must not force the official runtime.
    assert not [line for line in lines if "COURSE_RUNTIME=" in line or "--runtime" in line]
    assert subprocess.run(["bash", "-n", str(CI_RUN)]).returncode == 0


def actionlint():
    """The actionlint of this Python's environment (requirements.txt installs it), else one on the PATH."""
    beside = Path(sys.executable).parent / "actionlint"
    return str(beside) if beside.exists() else shutil.which("actionlint")


def test_the_pages_workflow_passes_actionlint():
    binary = actionlint()
    if binary is None:
        pytest.skip("actionlint is not installed (requirements.txt installs it on Linux)")
    done = subprocess.run([binary, "-no-color", str(WORKFLOW)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def build_job():
    """The workflow's build job, parsed."""
    return yaml.safe_load(WORKFLOW.read_text())["jobs"]["build"]


def step_index(steps, found, what):
    """The index of the first step for which found(step) holds; fails naming `what` when none does."""
    matches = [index for index, step in enumerate(steps) if found(step)]
    assert matches, "the build job has no step that {}".format(what)
    return matches[0]


def test_the_pages_workflow_runs_ci_run_in_debian_then_builds_the_artifact_on_the_official_runtime():
    job = build_job()
    container = job.get("container", {})
    image = container if isinstance(container, str) else container.get("image", "")
    assert image.startswith("debian:"), "the build job runs in no Debian container, so .ci/run cannot install its packages"
    assert job["timeout-minutes"] >= 60, "the suite alone takes about 25 minutes"
    # Job-wide, so that the tests' builds and the deploy's build resolve the same runtime, and a failed
    # download fails the run instead of falling back.
    assert job["env"]["COURSE_RUNTIME"] == "official"
    steps = job["steps"]
    test = step_index(steps, lambda step: re.match(r"(bash )?\.ci/run\b", step.get("run", "")), "runs .ci/run")
    build = step_index(steps, lambda step: "build.py build" in step.get("run", ""), "runs build.py build")
    upload = step_index(steps, lambda step: step.get("uses", "").startswith("actions/upload-pages-artifact@"),
                        "uploads the Pages artifact")
    assert test < build < upload
    for step in steps:
        assert "COURSE_RUNTIME" not in step.get("env", {}) and "--runtime" not in step.get("run", "")
    assert "GITHUB_STEP_SUMMARY" in steps[build]["run"], "the run does not say which runtime it tested and deployed"


def test_a_failed_test_step_never_reaches_the_deploy():
    workflow = yaml.safe_load(WORKFLOW.read_text())
    for step in workflow["jobs"]["build"]["steps"]:
        # A step that runs after a failure, or a failure that does not stop the job, would let an untested
        # site reach the artifact.
        assert not step.get("continue-on-error") and "always()" not in str(step.get("if", ""))
        assert "failure()" not in str(step.get("if", ""))
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build" and "if" not in deploy
