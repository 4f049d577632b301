"""docs/screenshots/ holds exactly what tools/screenshots.py's table produces."""

import importlib.util

from support import ROOT

FOLDER = ROOT / "docs" / "screenshots"


def table():
    """The screenshot tool as a module, without running it."""
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "tools" / "screenshots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_screenshot_in_the_docs_is_produced_by_a_row_of_the_table():
    produced = set(table().files())
    present = {path.name for path in FOLDER.glob("*.png")}
    assert present <= produced, sorted(present - produced)


def test_every_row_of_the_table_has_its_screenshots_in_the_docs():
    present = {path.name for path in FOLDER.glob("*.png")}
    missing = set(table().files()) - present
    assert not missing, sorted(missing)


def test_a_shot_is_named_by_its_stem_and_theme():
    module = table()
    shot = module.Shot("x", None, "p", "#a", (), module.SHORT)
    assert module.files([shot]) == ["x-375.png", "x-dark.png", "x-light.png"]
