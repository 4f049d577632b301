"""course.wheels, the worker's side of a lesson's packages: a wheel's sha256 is checked before micropip sees it."""

import asyncio
import concurrent.futures
import hashlib
import sys
import types

import pytest

from course import wheels


def fake_micropip(monkeypatch, takes_files):
    """A micropip that records what it is asked to install: current micropip's signature, or 0.17's."""
    asked = []

    async def install(requirement, deps=True):
        asked.append(requirement)

    async def install_017(requirement):
        asked.append(requirement)

    monkeypatch.setitem(sys.modules, "micropip", types.SimpleNamespace(install=install if takes_files else install_017))
    return asked


def wheel_at(tmp_path, data, sha256=None):
    path = tmp_path / "tiny-1.0-py3-none-any.whl"
    path.write_bytes(data)
    return {"name": "tiny", "file": "packages/" + path.name, "sha256": sha256 or hashlib.sha256(data).hexdigest(),
            "url": "http://127.0.0.1:1/runtime/packages/" + path.name, "path": str(path)}


def run(coroutine):
    """Run a coroutine to its end in a thread of its own (Playwright's sync API keeps a loop in the main one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.mark.parametrize("takes_files, source", [(True, "emfs:"), (False, "http://")])
def test_a_wheel_with_its_sha256_goes_to_micropip_from_the_file_or_its_url(tmp_path, monkeypatch, takes_files, source):
    asked = fake_micropip(monkeypatch, takes_files)
    run(wheels.install([wheel_at(tmp_path, b"the wheel")]))
    assert len(asked) == 1 and asked[0].startswith(source) and asked[0].endswith("tiny-1.0-py3-none-any.whl")


def test_a_wheel_whose_bytes_differ_from_the_build_is_never_installed(tmp_path, monkeypatch):
    asked = fake_micropip(monkeypatch, True)
    wheel = wheel_at(tmp_path, b"other bytes", sha256=hashlib.sha256(b"the wheel").hexdigest())
    with pytest.raises(ValueError, match="is not the file the course was built with"):
        run(wheels.install([wheel]))
    assert asked == []


def test_a_missing_package_reads_as_one_sentence_in_the_lessons_language(monkeypatch):
    from course import numbers
    monkeypatch.setattr(numbers, "_LANGUAGE", ["es"])
    assert wheels.not_installed(ModuleNotFoundError("No module named 'einops'", name="einops")) == (
        "El paquete 'einops' no forma parte de esta lección: quien la escribe puede añadirlo en 'packages:', al "
        "principio del archivo de la lección.")
    assert wheels.not_installed(ModuleNotFoundError("No module named 'einops.x'", name="einops.x")) is None
    assert wheels.not_installed(ImportError("cannot import name 'y'", name="einops")) is None
