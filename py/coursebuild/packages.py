"""A lesson's `packages:` from PyPI: pure wheels, resolved once with pip, cached outside the site.

    packages: [einops==0.8.1]

Each entry is `name==version`. pip downloads the pure (py3-none-any) wheels, dependencies included,
once for each Python the site supports (the legacy runtime's 3.8 and the official one's 3.14); both
must pick the same versions. The result is recorded in the cache (every wheel's file and sha256), so a
second build downloads nothing. NumPy is never installed from here: the runtime's own NumPy is used,
and a wheel whose NumPy requirement excludes the NumPy of either runtime is refused.
"""

import hashlib
import json
import keyword
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from . import staging

PYTHONS = ("3.8", "3.14")  # the legacy runtime's Python and the official one's
NUMPYS = ("1.17.5", "2.4.6")  # the NumPy each runtime ships
PURE_TAGS = ("py3-none-any", "py2.py3-none-any")
ENTRY = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.!+_-]+)$")
PYPI_JSON = "https://pypi.org/pypi/{name}/json"
PIP_TIMEOUT = 600
# Top-level modules that already mean something where cells run, beyond the standard library: a lesson's package
# or a wheel's module of the same name would be imported in their place.
RESERVED = {
    "numpy": "NumPy",
    "course": "the course library (py/course/)",
    "coursebuild": "the course's build (py/coursebuild/)",
    "js": "Pyodide's module 'js', through which the page's worker reaches the browser",
    "pyodide": "Pyodide's own module 'pyodide'",
    "micropip": "micropip, which the page ships for a lesson with packages",
}


class PackageError(Exception):
    """An entry of `packages:` that cannot be shipped, with what to do instead."""

    def __init__(self, entry, message):
        super().__init__(message)
        self.entry = entry


@dataclass
class Wheel:
    """One wheel a lesson installs: its file in the cache and its sha256."""

    name: str
    version: str
    file_name: str
    sha256: str
    path: Path

    def data(self):
        """What the page's worker needs: where the wheel is under runtime/, the sha256 it must have, and the modules
        whose first import installs it (course.wheels.install_on_import)."""
        return {"name": self.name, "version": self.version, "file": "packages/" + self.file_name,
                "sha256": self.sha256, "modules": top_level_modules(self.path)}


def entry_problem(entry):
    """Why one `packages:` entry is malformed (None when it is fine); NumPy is the runtime's own."""
    if not isinstance(entry, str) or not ENTRY.match(entry.strip()):
        return ("'{}' is not 'name==version'; pin each package exactly, such as 'einops==0.8.1'".format(entry))
    if canonicalize_name(ENTRY.match(entry.strip()).group(1)) == "numpy":
        return ("numpy is the runtime's own (NumPy 1.17.5 or 2.4.6) and is never installed from packages:; "
                "remove it")
    return None


def shadowed(module):
    """What a top-level module named `module` would hide where cells run, as a phrase; None when it hides nothing.

    Cells, the course library and the page's worker import NumPy, `course` and the standard library by name; a
    lesson's package or a wheel's module of the same name comes first on the path and would be imported instead.
    A keyword cannot be imported at all (`import class` is a syntax error).
    """
    if keyword.iskeyword(module):
        return "is a Python keyword, so no cell could import it ('import {}' is a syntax error)".format(module)
    if module in RESERVED:
        return "would shadow {}: cells that import '{}' would get it instead".format(RESERVED[module], module)
    if module in getattr(sys, "stdlib_module_names", ()) or module in sys.builtin_module_names:
        return ("would shadow the standard library's module '{}': cells, NumPy and the course library would import "
                "it instead".format(module))
    return None


def top_level_modules(path):
    """The top-level modules a wheel puts in site-packages: what its archive holds outside its .dist-info.

    The page's worker unpacks the archive as it is (course.wheels), so its file list, the one RECORD names too, is
    exactly what lands beside the standard library; top_level.txt is only a hint that some wheels lack.
    """
    modules = set()
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            parts = name.split("/")
            if parts[0].endswith(".data") and len(parts) > 2 and parts[1] in ("purelib", "platlib"):
                parts = parts[2:]
            elif parts[0].endswith((".dist-info", ".data")):
                continue
            if len(parts) > 1:
                modules.add(parts[0])
            elif parts[0].endswith(".py"):
                modules.add(parts[0][:-3])
    modules.discard("__pycache__")
    return sorted(modules)


def set_key(wheels):
    """A short name for a set of wheels: the same wheels give the same name."""
    digest = hashlib.sha256("\n".join(wheel.sha256 for wheel in wheels).encode())
    return digest.hexdigest()[:16]


def resolve(entries, cache_dir, log=print):
    """The wheels for `entries` (install order: dependencies first), from the cache or downloaded once with pip.

    Raises PackageError naming the entry at fault, also for wheels a cache recorded before a check was added.
    """
    entries = sorted(entry.strip() for entry in entries)
    record = cache_dir / "packages" / (hashlib.sha256("\n".join(entries).encode()).hexdigest()[:16] + ".json")
    wheels = _read_record(record)
    if wheels is None:
        wheels = _download_all(entries, cache_dir, log)
        staging.write_text(record, json.dumps([{"name": w.name, "version": w.version, "file_name": w.file_name,
                                                "sha256": w.sha256} for w in wheels], indent=1))
    _check_modules(wheels, entries)
    return wheels


def _download_all(entries, cache_dir, log):
    """The wheels pip picks for `entries`, the same for every Python the site runs, copied into the cache."""
    log("Downloading {} from PyPI with pip (once)...".format(", ".join(entries)))
    store = cache_dir / "packages" / "wheels"
    store.mkdir(parents=True, exist_ok=True)
    picked = {}
    with tempfile.TemporaryDirectory() as folder:
        stand_ins = _numpy_stand_ins(Path(folder) / "numpy")
        for python in PYTHONS:
            target = Path(folder) / python
            _download(entries, python, target, stand_ins)
            for path in sorted(target.glob("*.whl")):
                if path.name.startswith("numpy-"):
                    continue  # a stand-in: the runtime's own NumPy is used
                _check_wheel(path, entries)
                name, version = _name_version(path)
                if picked.setdefault(name, (version, path))[0] != version:
                    raise PackageError(_entry_for(name, entries), "pip picks {} {} for Python {} but {} for Python {}; "
                                       "pin one version of {} that both accept".format(
                                           name, picked[name][0], PYTHONS[0], version, python, name))
        wheels = []
        for name, (version, path) in sorted(picked.items()):
            shutil.copyfile(path, store / path.name)
            wheels.append(Wheel(name, version, path.name, _sha256(store / path.name), store / path.name))
    return _install_order(wheels)


def _check_modules(wheels, entries):
    """Refuse a wheel with a top-level module that would shadow NumPy, the course library or the standard library."""
    for wheel in wheels:
        for module in top_level_modules(wheel.path):
            problem = shadowed(module)
            if problem:
                entry = _entry_for(wheel.name, entries)
                own = canonicalize_name(entry.split("==")[0]) == canonicalize_name(wheel.name)
                label = entry if own else "{}=={} (which {} needs)".format(wheel.name, wheel.version, entry)
                raise PackageError(entry, "{} installs a module '{}', which {}; remove '{}' from packages:, or pick "
                                          "a version that does not install '{}'".format(label, module, problem, entry,
                                                                                       module))


def check_own_package(wheels, entries, package):
    """Refuse a wheel that installs a module named like the lesson's own package, for a lesson that has one: the
    lesson's folder comes first on the cells' path, so `import <package>` would reach the lesson's package and never
    the wheel's module. (A lesson with no code of its own, such as a folder 03-slugify that only installs
    python-slugify, shadows nothing.)"""
    for wheel in wheels:
        if package in top_level_modules(wheel.path):
            entry = _entry_for(wheel.name, entries)
            own = canonicalize_name(entry.split("==")[0]) == canonicalize_name(wheel.name)
            label = entry if own else "{}=={} (which {} needs)".format(wheel.name, wheel.version, entry)
            raise PackageError(entry, "{} installs a module '{}', the name of this lesson's own package (its folder's "
                                      "name without the number), which cells would import instead of the wheel's; "
                                      "rename the lesson's folder, or remove '{}' from packages:".format(
                                          label, package, entry))


def install_target(wheels, cache_dir):
    """A folder holding exactly these wheels installed (pip --target), made once per set of wheels; None for none."""
    if not wheels:
        return None
    target = cache_dir / "packages" / "site" / set_key(wheels)
    if target.is_dir():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))  # builds may run side by side
    command = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--no-compile", "--quiet",
               "--target", str(partial), *[str(wheel.path) for wheel in wheels]]
    done = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT)
    if done.returncode != 0:
        shutil.rmtree(partial, ignore_errors=True)
        raise PackageError(wheels[0].name, "pip could not install the wheels for the build's cells ({})".format(
            done.stderr.strip()[-300:]))
    try:
        partial.rename(target)
    except OSError:  # another build made the same folder meanwhile: its copy is as good
        shutil.rmtree(partial, ignore_errors=True)
    return target


def _read_record(record):
    """The wheels a previous build recorded, if every file is still there with its sha256; else None."""
    try:
        items = json.loads(record.read_text(encoding="utf-8"))
        wheels = [Wheel(item["name"], item["version"], item["file_name"], item["sha256"],
                        record.parent / "wheels" / item["file_name"]) for item in items]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if all(wheel.path.is_file() and _sha256(wheel.path) == wheel.sha256 for wheel in wheels):
        return wheels
    return None


def _numpy_stand_ins(folder):
    """Empty wheels named numpy 1.17.5 and 2.4.6, so pip resolves a NumPy requirement to a runtime's NumPy.

    NumPy has no pure wheel, so pip alone would refuse every package that needs it; its requirement is then
    checked against both runtimes' NumPy (see _check_wheel), and the stand-ins are never shipped.
    """
    folder.mkdir()
    for version in NUMPYS:
        info = "numpy-{}.dist-info/".format(version)
        with zipfile.ZipFile(folder / "numpy-{}-py3-none-any.whl".format(version), "w") as archive:
            archive.writestr(info + "METADATA", "Metadata-Version: 2.1\nName: numpy\nVersion: {}\n".format(version))
            archive.writestr(info + "WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
            archive.writestr(info + "RECORD", "")
    return folder


def _download(entries, python, target, stand_ins):
    """pip download of pure wheels for one Python; a failure is diagnosed entry by entry."""
    command = [sys.executable, "-m", "pip", "download", "--only-binary=:all:", "--implementation", "py",
               "--abi", "none", "--platform", "any", "--python-version", python, "--dest", str(target),
               "--find-links", str(stand_ins), "--progress-bar", "off", "--no-input", *entries]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise PackageError(entries[0], "pip could not be run ({})".format(error)) from error
    if done.returncode != 0:
        for entry in entries:
            _diagnose(entry)
        errors = [line for line in done.stderr.splitlines() if line.startswith("ERROR")] or ["pip failed"]
        raise PackageError(entries[0], "pip could not resolve these packages for Python {} ({})".format(
            python, errors[-1]))


def _diagnose(entry):
    """Raise the PackageError that says why PyPI cannot give this entry a pure wheel for both Pythons."""
    name, version = ENTRY.match(entry).groups()
    try:
        with urllib.request.urlopen(PYPI_JSON.format(name=name), timeout=30) as response:
            project = json.load(response)
    except OSError as error:
        if getattr(error, "code", None) == 404:
            raise PackageError(entry, "PyPI has no package named '{}'; check the spelling".format(name)) from error
        return  # PyPI cannot be asked: pip's own message has to do
    releases = project.get("releases", {})
    if version not in releases:
        latest = project.get("info", {}).get("version", "")
        raise PackageError(entry, "{} has no version {} on PyPI (the latest is {}); pin one that exists".format(
            name, version, latest))
    pure = [file for file in releases[version] if file["filename"].endswith(tuple(tag + ".whl" for tag in PURE_TAGS))]
    if not pure:
        raise PackageError(entry, "{} {} has no pure-Python wheel (py3-none-any) on PyPI, and the browser can "
                                  "install only those; pick a version that has one, or another package".format(
                                      name, version))
    _check_requires_python(entry, pure[0].get("requires_python"))


def _check_requires_python(entry, spec):
    """Refuse a wheel whose Requires-Python excludes a Python the site runs on."""
    if not spec:
        return
    excluded = [python for python in PYTHONS if python not in SpecifierSet(spec)]
    if excluded:
        raise PackageError(entry, "{} requires Python {}, which excludes Python {} ({}); pick a version that "
                                  "supports Python {}".format(
                                      entry, spec, ", ".join(excluded),
                                      "the legacy runtime" if "3.8" in excluded else "the official runtime",
                                      " and ".join(PYTHONS)))


def _check_wheel(path, entries):
    """Refuse a downloaded wheel that is not pure, excludes a Python, or needs a NumPy no runtime has."""
    name, version = _name_version(path)
    entry = _entry_for(name, entries)
    if not path.name.endswith(tuple(tag + ".whl" for tag in PURE_TAGS)):
        raise PackageError(entry, "{} is not a pure-Python wheel; the browser can install only py3-none-any "
                                  "wheels".format(path.name))
    metadata = _metadata(path)
    own = canonicalize_name(entry.split("==")[0]) == canonicalize_name(name)
    label = entry if own else "{}=={} (which {} needs)".format(name, version, entry)
    _check_requires_python(label, metadata.get("Requires-Python"))
    for line in metadata.get_all("Requires-Dist") or []:
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            continue
        if canonicalize_name(requirement.name) != "numpy":
            continue
        missing = [numpy for numpy in NUMPYS if numpy not in requirement.specifier]
        if missing:
            raise PackageError(entry, "{} {} needs NumPy {}, which excludes NumPy {} of the runtime; pick a version "
                                      "that accepts NumPy {}".format(name, version, requirement.specifier,
                                                                     ", ".join(missing), " and ".join(NUMPYS)))


def _metadata(path):
    """The METADATA of a wheel, as an email message."""
    from email.parser import Parser
    with zipfile.ZipFile(path) as archive:
        name = next(item for item in archive.namelist() if item.endswith(".dist-info/METADATA"))
        return Parser().parsestr(archive.read(name).decode("utf-8"))


def _install_order(wheels):
    """The wheels with each one's dependencies before it (the worker unpacks them in that order, resolving nothing)."""
    by_name = {canonicalize_name(wheel.name): wheel for wheel in wheels}
    ordered, seen = [], set()

    def visit(wheel):
        if wheel.name in seen:
            return
        seen.add(wheel.name)
        for line in _metadata(wheel.path).get_all("Requires-Dist") or []:
            try:
                dependency = by_name.get(canonicalize_name(Requirement(line).name))
            except InvalidRequirement:
                continue
            if dependency is not None:
                visit(dependency)
        ordered.append(wheel)

    for wheel in wheels:
        visit(wheel)
    return ordered


def _name_version(path):
    """('python_dateutil', '2.9.0.post0') from a wheel's file name."""
    name, version = path.name.split("-")[:2]
    return name, version


def _entry_for(name, entries):
    """The entry a wheel belongs to: its own, or (for a dependency) the first entry."""
    for entry in entries:
        if canonicalize_name(entry.split("==")[0]) == canonicalize_name(name):
            return entry
    return entries[0]


def _sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
