"""The suite's fixtures serve both tests/ and every lesson's own tests in lessons/<lesson>/tests/."""

import sys
from pathlib import Path

LESSONS = Path(__file__).resolve().parent / "lessons"
# A lesson's test module may share a fixture by name with the suite (tests/test_explorables.py takes test_lesson_003's
# `ukrainian`): each lesson's tests folder is importable, as tests/ is (pytest.ini's pythonpath).
sys.path[1:1] = [str(folder) for folder in sorted(LESSONS.glob("*/tests")) if folder.is_dir()]

pytest_plugins = ["course_fixtures"]
