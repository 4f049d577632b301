"""A lesson's packages in the browser: each wheel checked against its sha256, then unpacked into site-packages.

The page's worker fetches every wheel the lesson lists from the site itself and writes it to
`path`; `install` reads it back, compares its sha256 with the build's and unpacks it with `zipfile`
into the runtime's site-packages (a pure wheel is a zip of its files and its .dist-info). micropip is
not needed for that, and not imported: it costs about 230 ms of imports (packaging, pyparsing) before a
first output. No dependency is resolved here: the build lists every wheel, dependencies first, and
refuses any that is not pure.

The worker calls `install_on_import`: the wheels are checked and unpacked the first time a cell imports
one of the modules they provide, or imports pkg_resources, or asks importlib.metadata about any package, so a
first cell that does not use them does not wait for it (on the legacy runtime, about 40 ms of `import zipfile`
and 25 ms of unpacking). `hashlib`, `sysconfig` and `zipfile` are imported only then, for the same reason.

`not_installed` is the one sentence a learner sees for an import of a package the lesson does not list.

Runs on Python 3.8 and later.
"""

import importlib
import os
import sys

from course import numbers

NOT_INSTALLED = {
    "en": "The package '{name}' is not part of this lesson: its author can add it under 'packages:' in the "
          "lesson's front matter.",
    "es": "El paquete '{name}' no forma parte de esta lección: quien la escribe puede añadirlo en 'packages:', "
          "al principio del archivo de la lección.",
    "uk": "Пакет '{name}' не входить до цього уроку: автор може додати його до 'packages:' на початку файлу "
          "уроку.",
}


def install_on_import(wheels, target=None):
    """install() `wheels` ([{"name", "file", "sha256", "path", "modules"}]) once something needs them: an import of
    a top-level module one of them provides ("modules", which the build lists), an import of pkg_resources, or
    importlib.metadata looking for any distribution. All of them at once, so a wheel's dependencies come with it.
    A wheel whose bytes differ from the build's fails that import with install()'s ValueError, and the next one
    alike. Without "modules" in every wheel, they are installed now."""
    if not wheels:
        return
    if not all(wheel.get("modules") for wheel in wheels):
        install(wheels, target)
        return
    sys.meta_path.insert(0, _InstallOnImport(wheels, target))


class _InstallOnImport:
    """The meta path entry of install_on_import: it finds nothing itself, it installs the wheels once. It stays
    in sys.meta_path, idle, afterwards: the import system walks that very list while it asks this entry, so taking
    the entry out then would make it pass over the one after."""

    def __init__(self, wheels, target):
        self._wheels = wheels
        self._target = target
        self._modules = {module for wheel in wheels for module in wheel["modules"]}
        self._installing = False
        self.installed = False

    def find_spec(self, fullname, path=None, target=None):
        top = fullname.partition(".")[0]
        # pkg_resources lists the installed distributions once, on its import, without asking sys.meta_path
        if top in self._modules or top == "pkg_resources":
            self._install()
        return None  # the path's own finders find the module, now unpacked

    def find_distributions(self, context=None):
        self._install()
        return iter(())

    def _install(self):
        if self._installing or self.installed:
            return
        self._installing = True
        try:
            install(self._wheels, self._target)
            self.installed = True
        finally:
            self._installing = False


def install(wheels, target=None):
    """Unpack [{"name", "file", "sha256", "path"}] in order into `target` (site-packages by default); raise
    ValueError, naming the wheel, for one whose bytes differ from the build's (nothing of it is unpacked)."""
    import hashlib

    target = target or site_packages()
    for wheel in wheels:
        with open(wheel["path"], "rb") as handle:
            data = handle.read()
        digest = hashlib.sha256(data).hexdigest()
        if digest != wheel["sha256"]:
            raise ValueError("{} is not the file the course was built with (sha256 {}, expected {}); reload the "
                             "page".format(wheel["file"], digest, wheel["sha256"]))
        unpack(wheel["path"], target)
    importlib.invalidate_caches()


def site_packages():
    """The folder of sys.path where this Python's installed packages live (Pyodide 0.17: /lib/python3.8/site-packages;
    current Pyodide: /lib/python3.14/site-packages)."""
    import sysconfig

    purelib = sysconfig.get_paths().get("purelib")
    if purelib and purelib in sys.path:
        return purelib
    found = [path for path in sys.path if os.path.basename(path.rstrip("/")) == "site-packages"]
    if not found:
        raise RuntimeError("this Python has no site-packages folder on sys.path")
    return found[0]


def unpack(path, target):
    """Unpack a pure wheel into target: its files, its .dist-info, and its <name>.data/purelib (or platlib) files at
    the top, as pip installs them; scripts, headers and data files of <name>.data are not needed for an import."""
    import zipfile

    with zipfile.ZipFile(path) as archive:
        for member in archive.infolist():
            name = _installed_name(member.filename)
            if name is None or member.is_dir():
                continue
            destination = os.path.join(target, *name.split("/"))
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            with archive.open(member) as source, open(destination, "wb") as copy:
                copy.write(source.read())


def _installed_name(name):
    """Where a wheel's member goes under site-packages, None for one that goes elsewhere or would leave it."""
    parts = name.split("/")
    if ".." in parts or name.startswith("/"):
        return None
    if parts[0].endswith(".data"):
        if len(parts) < 3 or parts[1] not in ("purelib", "platlib"):
            return None
        parts = parts[2:]
    return "/".join(parts)


def not_installed(error):
    """The sentence for a ModuleNotFoundError of a whole package (None for other errors, or a missing submodule)."""
    name = getattr(error, "name", None)
    if not isinstance(error, ModuleNotFoundError) or not name or "." in name:
        return None
    sentence = NOT_INSTALLED.get(numbers.current_language(), NOT_INSTALLED["en"])
    return sentence.format(name=name)
