"""`build.py build --lesson NAME`: one lesson, with its editions, built as a course of that lesson alone, so its
index, its path and the service worker's lists name only what the site holds."""

import contextlib
import io
import json
import re

import pytest

from coursebuild.site import find_lesson
from support import ROOT, cli, lesson_pages

LESSON = "005-position-and-block"
OTHERS = sorted(path.parent.name for path in (ROOT / "lessons").glob("*/lesson.md") if path.parent.name != LESSON)


@pytest.fixture(scope="module")
def build_alone(tmp_path_factory):
    """Lesson 005 built alone, named by the part of its folder's name after the number: (its site, what the build
    printed)."""
    out = tmp_path_factory.mktemp("one-lesson") / "_site"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        status = cli.main(["--lessons", str(ROOT / "lessons"), "--out", str(out), "build", "--lesson",
                           "position-and-block"])
    assert status == 0, "the build of lesson 005 alone failed"
    return out, printed.getvalue()


@pytest.fixture
def one_lesson(build_alone):
    return build_alone[0]


def test_the_site_holds_every_edition_of_the_lesson_and_no_other_lesson(one_lesson):
    built = sorted(path.parent.relative_to(one_lesson).as_posix() for path in one_lesson.glob(LESSON + "/**/index.html"))
    assert built == [key for key in lesson_pages() if key.split("/")[0] == LESSON]
    assert len(built) > 1  # lesson.md's page and its editions'
    assert not [other for other in OTHERS if (one_lesson / other).exists()]


def test_each_index_lists_the_lesson_alone(one_lesson):
    indexes = sorted(one_lesson.glob("index.html")) + sorted(one_lesson.glob("*/index.html"))
    assert len(indexes) > 1  # the course index in each language its pages are written in
    for index in indexes:
        assert re.findall(r'data-lesson="([^"]+)"', index.read_text(encoding="utf-8")) == [LESSON], index


def test_the_path_calls_the_lesson_the_first_and_last_of_its_course(one_lesson):
    page = (one_lesson / LESSON / "index.html").read_text(encoding="utf-8")
    nav = re.search(r'<nav class="lesson-path".*?</nav>', page, re.S).group(0)
    assert "Lesson 1 of 1" in nav and 'class="path-end"' in nav
    assert "<a " not in nav


def test_the_service_worker_precaches_every_file_of_the_site_and_nothing_else(one_lesson):
    manifest = json.loads(re.match(r"const MANIFEST = (.*);\n", (one_lesson / "sw.js").read_text(encoding="utf-8")).group(1))
    files = {path.relative_to(one_lesson).as_posix() for path in one_lesson.rglob("*") if path.is_file()}
    listed = set(manifest["site"]) | set(manifest["runtime"])
    assert listed == files - {"sw.js", ".nojekyll"}
    assert LESSON + "/index.html" in listed
    assert not [path for path in listed if path.split("/")[0] in OTHERS]


def test_the_build_says_the_site_is_the_lesson_alone(build_alone):
    assert "This site is a course of {} alone".format(LESSON) in build_alone[1]


@pytest.mark.parametrize("name", [LESSON, "position-and-block", "lessons/{}/".format(LESSON)])
def test_a_lesson_is_named_by_its_folder_the_part_after_its_number_or_its_path(name):
    assert find_lesson(ROOT / "lessons", name) == LESSON


def test_an_unknown_lesson_is_refused_with_status_2_and_the_list_of_lessons(tmp_path, capsys):
    status = cli.main(["--lessons", str(ROOT / "lessons"), "--out", str(tmp_path / "_site"), "build",
                       "--lesson", "position-and-blocks"])
    err = capsys.readouterr().err
    assert status == 2
    assert "no lesson 'position-and-blocks'" in err
    assert all(folder in err for folder in OTHERS + [LESSON]), err
    assert not (tmp_path / "_site").exists()


def test_a_name_two_folders_share_after_their_numbers_asks_for_the_folder(tmp_path):
    for folder in ("004-softmax-basics", "006-softmax-basics", "007-other"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "lesson.md").write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match=r"'softmax-basics' names 2 lessons \(004-softmax-basics, 006-softmax-basics\); "
                                         "name one by its folder"):
        find_lesson(tmp_path, "softmax-basics")
    assert find_lesson(tmp_path, "006-softmax-basics") == "006-softmax-basics"
