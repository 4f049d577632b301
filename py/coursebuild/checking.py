"""Prove each exercise's checker at build time: the reference passes, every known-wrong solution fails."""

import hashlib
import json
import os
import subprocess
import sys

from .errors import LessonError

TIMEOUT_SECONDS = 300


def jobs_for(exercise):
    """The solutions to grade for one exercise: the reference first, then each known-wrong one."""
    jobs = [{"name": "solution", "checker": exercise.checker, "code": exercise.solution}]
    jobs += [{"name": "wrong/" + name, "checker": exercise.checker, "code": code}
             for name, code in sorted(exercise.wrong.items())]
    return jobs


def grade_all(jobs, py_dir):
    """Run jobs through course.exercise.grade in a subprocess; returns {name: result} or raises RuntimeError."""
    env = dict(os.environ, PYTHONPATH=str(py_dir), PYTHONIOENCODING="utf-8")
    done = subprocess.run([sys.executable, "-m", "coursebuild.checkrun"], input=json.dumps({"jobs": jobs}),
                          capture_output=True, text=True, encoding="utf-8", env=env, timeout=TIMEOUT_SECONDS)
    if done.returncode != 0:
        raise RuntimeError((done.stderr.strip().splitlines() or ["no message"])[-1])
    return json.loads(done.stdout)["results"]


def check_exercises(lesson, py_dir, cache_dir, library):
    """Errors for every exercise of the lesson whose checker is not proven right."""
    errors = []
    for exercise in lesson.exercises:
        jobs = jobs_for(exercise)
        key = hashlib.sha256(json.dumps([library, jobs], sort_keys=True).encode()).hexdigest()
        cached = cache_dir / "checks" / (key + ".json")
        if cached.exists():
            results = json.loads(cached.read_text(encoding="utf-8"))
        else:
            try:
                results = grade_all(jobs, py_dir)
            except (RuntimeError, subprocess.TimeoutExpired) as error:
                errors.append(LessonError(lesson.path, exercise.line, "exercise '{}': its checker could not be "
                                          "run ({})".format(exercise.id, error)))
                continue
            cached.parent.mkdir(parents=True, exist_ok=True)
            cached.write_text(json.dumps(results), encoding="utf-8")
        errors += _verdict_errors(lesson, exercise, results)
    return errors


def _verdict_errors(lesson, exercise, results):
    errors = []
    reference = results["solution"]
    if not reference["passed"]:
        failed = next((item["message"] for item in reference["results"] if not item["ok"]), "no result")
        errors.append(LessonError(lesson.path, exercise.line, "exercise '{}': the reference solution fails its "
                                  "checker: {}".format(exercise.id, failed)))
    for name, result in sorted(results.items()):
        if name.startswith("wrong/") and result["passed"]:
            errors.append(LessonError(lesson.path, exercise.line, "exercise '{}': the known-wrong solution {} "
                                      "passes the checker; make the checker reject that mistake".format(
                                          exercise.id, name)))
    return errors
