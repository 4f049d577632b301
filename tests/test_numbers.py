"""course.numbers: the one formatter, reading each language's marks from site/i18n."""

import json

import numpy as np
import pytest

from course import numbers


@pytest.mark.parametrize("value, spec, language, expected", [
    (198272, "", "es", "198.272"),
    (198272, "", "uk", "198\u00a0272"),
    (198272, "", "en", "198,272"),
    (2048, "", "es", "2048"),
    (2048, "", "en", "2,048"),
    (0.5, ".2f", "uk", "0,50"),
    (-0.0001, ".2f", "es", "0,00"),
    (np.float64(3.14159), ".3f", "es", "3,142"),
    (np.array([0.5, 0.25, 0.8]), ".2f", "uk", "[0,50; 0,25; 0,80]"),
    ([[1, 2], [3, 4]], "", "en", "[[1; 2]; [3; 4]]"),
    (1048576, "", "es", "1.048.576"),  # as glued values are written in a built page
    (1048576, "", "uk", "1\u00a0048\u00a0576"),
    (262144, "", "en", "262,144"),
    (0.4581, ".3f", "es", "0,458"),
    (64, "", "en", "64"),
])
def test_numbers_are_written_the_way_the_language_writes_them(value, spec, language, expected):
    assert numbers.number(value, spec, language) == expected


def test_the_marks_come_from_the_strings_files(tmp_path):
    (tmp_path / "xx.json").write_text(json.dumps({"decimal_separator": "'", "first_grouped_number": "1_000"}))
    assert numbers.read_formats(tmp_path) == {"xx": ["'", "_", 4]}
    (tmp_path / "yy.json").write_text(json.dumps({"decimal_separator": ",", "first_grouped_number": "ten"}))
    with pytest.raises(ValueError, match="first_grouped_number 'ten'"):
        numbers.read_formats(tmp_path)


def test_without_a_language_the_current_lesson_language_is_used():
    before = numbers.current_language()
    try:
        numbers.set_language("es")
        assert numbers.number(1048576.5, ".1f") == "1.048.576,5"
    finally:
        numbers.set_language(before)


def test_a_jupyter_kernel_writes_in_the_language_of_the_lesson_file_it_serves(tmp_path):
    from course.numbers import notebook_language
    lesson = tmp_path / "lesson.md"
    lesson.write_text("---\ntitle: T\nlanguage: uk\norder: 1\nsummary: S.\n---\n\nText.\n", encoding="utf-8")
    assert notebook_language(str(lesson)) == "uk"
    assert notebook_language(str(tmp_path / "lesson.en.md")) == "en"  # an edition says it in its name
    assert notebook_language(str(tmp_path / "notes.ipynb")) is None
    assert notebook_language("") is None


def test_nobody_setting_a_language_leaves_the_notebooks_or_english(monkeypatch, tmp_path):
    from course import numbers
    monkeypatch.setattr(numbers, "_LANGUAGE", [None])
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "lesson.es.md"))
    assert numbers.number(0.5, ".2f") == "0,50"
    monkeypatch.setattr(numbers, "_LANGUAGE", [None])
    monkeypatch.delenv("JPY_SESSION_NAME")
    assert numbers.number(0.5, ".2f") == "0.50"
