"""Choosing the Pyodide distribution (DESIGN §3), with a fake npm package and a local wheel URL."""

import hashlib
import json

import pytest

from coursebuild import runtime
from support import ROOT

WHEEL = "numpy-9.9-cp314-cp314-pyemscripten_wasm32.whl"


def fake_npm_package(root, wheel_bytes):
    package = root / "node_modules" / "pyodide"
    package.mkdir(parents=True)
    for name in runtime.MODULE_FILES:
        (package / name).write_text("x")
    (package / "package.json").write_text(json.dumps({"version": "314.0.7"}))
    lock = {"info": {"python": "3.14.2"}, "packages": {"numpy": {
        "file_name": WHEEL, "sha256": hashlib.sha256(wheel_bytes).hexdigest()}}}
    (package / "pyodide-lock.json").write_text(json.dumps(lock))
    return package


@pytest.fixture
def served_wheel(tmp_path, monkeypatch):
    """A wheel reachable at a file:// URL standing in for the release CDN."""
    cdn = tmp_path / "cdn"
    cdn.mkdir()
    (cdn / WHEEL).write_bytes(b"the official wheel")
    monkeypatch.setattr(runtime, "OFFICIAL_WHEEL_URL", cdn.as_uri() + "/{file_name}")
    return cdn / WHEEL


def test_the_official_runtime_downloads_its_numpy_wheel_once_and_checks_it(tmp_path, served_wheel):
    fake_npm_package(tmp_path, served_wheel.read_bytes())
    chosen = runtime.resolve(tmp_path, tmp_path / "cache")
    assert (chosen.kind, chosen.worker, chosen.version, chosen.packages) == ("official", "module", "314.0.7", ["numpy"])
    assert chosen.files[WHEEL] == tmp_path / "cache" / "wheels" / WHEEL
    served_wheel.unlink()  # a second build needs no network
    assert runtime.resolve(tmp_path, tmp_path / "cache").files[WHEEL].read_bytes() == b"the official wheel"


def test_a_wheel_that_fails_its_sha256_is_refused_and_the_build_falls_back(tmp_path, served_wheel, monkeypatch):
    fake_npm_package(tmp_path, b"something else")
    with pytest.raises(runtime.RuntimeUnavailable, match="did not match the sha256"):
        runtime.resolve(tmp_path, tmp_path / "cache", choice="official")
    assert not (tmp_path / "cache" / "wheels" / WHEEL).exists()
    legacy = runtime.Runtime("legacy", "classic", "0.17.1", "3.8")
    monkeypatch.setattr(runtime, "legacy", lambda cache_dir, log: legacy)
    said = []
    chosen = runtime.resolve(tmp_path, tmp_path / "cache", log=said.append)
    assert chosen is legacy and "did not match the sha256" in chosen.reason
    assert said and said[0].startswith("WARNING: falling back to the legacy Pyodide 0.17.1")


def test_a_named_folder_of_either_generation_is_recognised(tmp_path):
    assert runtime.from_folder(ROOT / "node_modules" / "pyodide").worker == "module"
    classic = tmp_path / "dist"
    classic.mkdir()
    for name in runtime.CLASSIC_FILES + ("numpy.js", "numpy.data"):
        (classic / name).write_text("x")
    found = runtime.from_folder(classic)
    assert found.worker == "classic" and found.packages == ["numpy"]
    with pytest.raises(runtime.RuntimeUnavailable, match="is not a Pyodide distribution"):
        runtime.from_folder(tmp_path)
