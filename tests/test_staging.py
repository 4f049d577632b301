"""The build's cache entries are staged under a writer's own name and moved into place in one step, so builds
sharing one .cache/ never meet in a half-written entry (py/coursebuild/staging.py)."""

import threading

from coursebuild import staging


def test_writers_racing_on_one_entry_leave_one_whole_write_and_no_staged_files(tmp_path):
    path = tmp_path / "runs" / "entry.json"
    texts = ["[{}]".format(str(writer) * 200_000) for writer in range(4)]
    seen = []
    failed = []

    def write(text):
        try:
            for _ in range(20):
                staging.write_text(path, text)
                seen.append(path.read_text(encoding="utf-8"))
        except OSError as error:  # with one shared staging name, a writer finds its staged file moved by another
            failed.append(error)

    threads = [threading.Thread(target=write, args=(text,)) for text in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failed, failed
    assert len(seen) == 80 and all(text in texts for text in seen)  # never a mixture of two writes, never a half one
    assert [entry.name for entry in path.parent.iterdir()] == ["entry.json"]


def test_a_folder_placed_first_by_another_writer_is_kept_and_the_staged_one_dropped(tmp_path):
    target = tmp_path / "bundles" / "abc"
    first, second = staging.new_folder(target), staging.new_folder(target)
    assert first != second and first.parent == second.parent == target.parent
    (first / "page.js").write_text("first")
    (second / "page.js").write_text("second")
    staging.place(first, target)
    staging.place(second, target)
    assert (target / "page.js").read_text() == "first"
    assert sorted(entry.name for entry in target.parent.iterdir()) == ["abc"]


def test_a_replacing_place_swaps_an_incomplete_folder_for_the_staged_one(tmp_path):
    target = tmp_path / "legacy"
    target.mkdir()
    (target / "half").write_text("")
    staged = staging.new_folder(target)
    (staged / "whole").write_text("")
    staging.place(staged, target, replace=True)
    assert sorted(entry.name for entry in target.iterdir()) == ["whole"]
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["legacy"]


def test_a_discarded_staging_leaves_nothing(tmp_path):
    target = tmp_path / "wheel.whl"
    for staged in (staging.new_file(target), staging.new_folder(target)):
        staging.discard(staged)
    assert list(tmp_path.iterdir()) == []
