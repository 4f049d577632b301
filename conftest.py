"""The suite's fixtures serve both tests/ and every lesson's own tests in lessons/<lesson>/tests/."""

pytest_plugins = ["course_fixtures"]
