"""course.wheels, the worker's side of a lesson's packages: a wheel's sha256 is checked, then it is unpacked."""

import hashlib
import importlib
import shutil
import sys
import zipfile

import pytest

from course import wheels


def wheel_at(tmp_path, files, sha256=None):
    """A wheel holding `files` ({name: text}), as the worker writes it, with the build's sha256 (or `sha256`)."""
    path = tmp_path / "tiny-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    data = path.read_bytes()
    return {"name": "tiny", "file": "packages/" + path.name, "sha256": sha256 or hashlib.sha256(data).hexdigest(),
            "path": str(path)}


TINY = {"tiny/__init__.py": "ANSWER = 42\n", "tiny-1.0.dist-info/METADATA": "Name: tiny\nVersion: 1.0\n",
        "tiny-1.0.data/purelib/tiny_extra.py": "EXTRA = 1\n", "tiny-1.0.data/scripts/tiny": "#!python\n",
        "../outside.py": "", "/absolute.py": ""}


def test_a_wheel_with_its_sha256_is_unpacked_as_pip_would_install_it_without_micropip(tmp_path, monkeypatch):
    monkeypatch.delitem(sys.modules, "micropip", raising=False)
    target = tmp_path / "site-packages"
    wheels.install([wheel_at(tmp_path, TINY)], str(target))
    installed = sorted(path.relative_to(target).as_posix() for path in target.rglob("*") if path.is_file())
    assert installed == ["tiny-1.0.dist-info/METADATA", "tiny/__init__.py", "tiny_extra.py"]
    assert (target / "tiny" / "__init__.py").read_text() == "ANSWER = 42\n"
    assert not (tmp_path / "outside.py").exists()
    assert "micropip" not in sys.modules


def test_a_wheel_whose_bytes_differ_from_the_build_is_refused_by_name_and_never_unpacked(tmp_path):
    target = tmp_path / "site-packages"
    wheel = wheel_at(tmp_path, TINY, sha256=hashlib.sha256(b"the wheel").hexdigest())
    with pytest.raises(ValueError, match=r"^packages/tiny-1\.0-py3-none-any\.whl is not the file the course was built"):
        wheels.install([wheel], str(target))
    assert not target.exists()


def test_site_packages_is_the_folder_on_sys_path_where_packages_are_installed():
    folder = wheels.site_packages()
    assert folder in sys.path and folder.rstrip("/").endswith("site-packages")


def test_a_missing_package_reads_as_one_sentence_in_the_lessons_language(monkeypatch):
    from course import numbers
    monkeypatch.setattr(numbers, "_LANGUAGE", ["es"])
    assert wheels.not_installed(ModuleNotFoundError("No module named 'einops'", name="einops")) == (
        "El paquete 'einops' no forma parte de esta lección: quien la escribe puede añadirlo en 'packages:', al "
        "principio del archivo de la lección.")
    assert wheels.not_installed(ModuleNotFoundError("No module named 'einops.x'", name="einops.x")) is None
    assert wheels.not_installed(ImportError("cannot import name 'y'", name="einops")) is None


@pytest.fixture
def lazy_site(tmp_path, monkeypatch):
    """A site-packages folder on sys.path, with sys.meta_path and the modules the tests import restored after."""
    target = tmp_path / "site-packages"
    target.mkdir()
    monkeypatch.syspath_prepend(str(target))
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    for name in ("tiny", "tiny_extra"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield target
    for name in ("tiny", "tiny_extra"):
        sys.modules.pop(name, None)


def test_a_wheel_is_unpacked_only_when_a_cell_first_imports_one_of_its_modules(tmp_path, lazy_site):
    wheel = {**wheel_at(tmp_path, TINY), "modules": ["tiny", "tiny_extra"]}
    wheels.install_on_import([wheel], str(lazy_site))
    assert list(lazy_site.iterdir()) == []
    import colorsys  # noqa: F401  another module: nothing is unpacked for it
    assert list(lazy_site.iterdir()) == []
    import tiny_extra
    assert tiny_extra.EXTRA == 1
    import tiny
    assert tiny.ANSWER == 42
    assert [finder.installed for finder in sys.meta_path if type(finder).__name__ == "_InstallOnImport"] == [True]
    shutil.rmtree(lazy_site / "tiny")  # installed once: a later import does not unpack it again
    importlib.invalidate_caches()
    sys.modules.pop("tiny")
    with pytest.raises(ImportError):
        import tiny  # noqa: F811


def test_importlib_metadata_sees_a_wheel_no_cell_has_imported_yet(tmp_path, lazy_site):
    import importlib.metadata
    wheels.install_on_import([{**wheel_at(tmp_path, TINY), "modules": ["tiny"]}], str(lazy_site))
    assert importlib.metadata.version("tiny") == "1.0"
    assert "tiny" not in sys.modules


def test_an_import_of_pkg_resources_installs_the_wheels_it_would_list_once_and_for_good(tmp_path, lazy_site):
    wheels.install_on_import([{**wheel_at(tmp_path, TINY), "modules": ["tiny"]}], str(lazy_site))
    finder = next(finder for finder in sys.meta_path if type(finder).__name__ == "_InstallOnImport")
    assert finder.find_spec("pkg_resources") is None  # the path's finders find it
    assert (lazy_site / "tiny" / "__init__.py").is_file()


def test_a_lazily_installed_wheel_with_other_bytes_fails_every_import_of_it_by_name(tmp_path, lazy_site):
    wheel = {**wheel_at(tmp_path, TINY, sha256=hashlib.sha256(b"the wheel").hexdigest()), "modules": ["tiny"]}
    wheels.install_on_import([wheel], str(lazy_site))
    for _ in range(2):
        with pytest.raises(ValueError, match=r"^packages/tiny-1\.0-py3-none-any\.whl is not the file the course"):
            import tiny  # noqa: F401
    assert list(lazy_site.iterdir()) == []


def test_wheels_without_their_modules_listed_are_installed_at_once(tmp_path, lazy_site):
    wheels.install_on_import([wheel_at(tmp_path, TINY)], str(lazy_site))
    assert (lazy_site / "tiny" / "__init__.py").is_file()
    assert not any(type(finder).__name__ == "_InstallOnImport" for finder in sys.meta_path)
