"""The shared name corpora: one lower-cased name per line, deduplicated and sorted, with their source and licence."""

from pathlib import Path

import pytest

CORPORA = Path(__file__).resolve().parents[1] / "lessons" / "corpora"


@pytest.mark.parametrize("language", ["es", "uk", "en"])
def test_a_corpus_is_one_lower_cased_name_a_line_deduplicated_and_sorted(language):
    text = (CORPORA / "{}.txt".format(language)).read_text(encoding="utf-8")
    names = text.split("\n")
    assert names[-1] == "" and all(names[:-1])  # every line ends in a newline, none is empty
    names = names[:-1]
    assert names == sorted(set(names)) and text == text.lower() and len(names) > 500
    assert all(name == name.strip() for name in names)


def test_the_corpora_readme_names_the_source_version_and_licence():
    readme = (CORPORA / "README.md").read_text(encoding="utf-8")
    assert "Faker 40.63.0" in readme and "MIT License" in readme and "Permission is hereby granted" in readme
    for language in ("es", "uk", "en"):
        assert "`{}.txt`".format(language) in readme
