"""Choose the Pyodide distribution the site ships, in the order DESIGN.md §3 sets.

1. A distribution folder the author names (--pyodide-dir or COURSE_PYODIDE_DIR).
2. The npm package `pyodide` pinned in package.json, plus the official NumPy
   wheel of exactly that release, downloaded once into the cache and checked
   against the sha256 in its pyodide-lock.json.
3. Where that download is impossible: the registry-only full distribution
   `@pyodide/pyodide@0.17.1`, fetched with `npm pack` into the cache.

The chosen runtime says which worker it needs: current Pyodide runs only in a
module worker, the legacy distribution only in a classic one.
"""

import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from . import staging

OFFICIAL_WHEEL_URL = "https://cdn.jsdelivr.net/pyodide/v{version}/full/{file_name}"
LEGACY_PACKAGE = "@pyodide/pyodide@0.17.1"
LEGACY_VERSION = "0.17.1"
DOWNLOAD_TIMEOUT = 20
MODULE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
CLASSIC_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "pyodide.asm.data", "packages.json")
CLASSIC_PACKAGE_FILES = {"numpy": ("numpy.js", "numpy.data")}
# micropip, for learner code that imports it on a page with packages (the worker installs lessons' wheels
# without it). The legacy distribution has its own (with its dependencies); current Pyodide's npm package has
# none, and loadPackage("micropip") would fetch it from the CDN its lock names, so the site ships the versions
# that lock names as PyPI's wheels, whose sha256 are these.
LEGACY_MICROPIP_FILES = ("micropip.js", "micropip.data", "packaging.js", "packaging.data", "pyparsing.js",
                         "pyparsing.data")
MICROPIP_WHEELS = {
    "micropip-0.11.1-py3-none-any.whl": "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3",
    "packaging-26.1-py3-none-any.whl": "5d9c0669c6285e491e0ced2eee587eaf67b670d94a19e94e3984a481aba6802f",
}


class RuntimeUnavailable(Exception):
    """No distribution could be had in the way that was asked for."""


@dataclass
class Runtime:
    """A Pyodide distribution: which worker it needs and which files the site copies."""

    kind: str  # "official", "legacy" or "folder"
    worker: str  # "module" or "classic"
    version: str
    python: str
    files: dict = field(default_factory=dict)  # name in _site/runtime/ -> source path
    packages: list = field(default_factory=list)  # what loadPackage can load, e.g. ["numpy"]
    reason: str = ""
    micropip: list = field(default_factory=list)  # what loadPackage loads to get micropip: names or wheel files
    micropip_files: list = field(default_factory=list)  # the files of `files` only micropip reads (never the start)

    def describe(self):
        """One line for the build log."""
        numpy = "with NumPy" if "numpy" in self.packages else "without NumPy"
        return "Pyodide {} (Python {}, {}, {} worker), {}: {}".format(
            self.version, self.python, numpy, self.worker, self.kind, self.reason)

    def manifest(self, micropip=True):
        """What the page's worker needs to load this runtime. `files` are those its start reads, which the page
        counts, states and looks for in the cache: never micropip's, which the worker loads only when a cell
        imports micropip, and names only for a lesson with wheels (`micropip`), the only one whose site ships it."""
        files = {name: path for name, path in self.files.items() if name not in self.micropip_files}
        return {
            "worker": self.worker,
            "version": self.version,
            "packages": list(self.packages),
            "micropip": list(self.micropip) if micropip else [],
            "files": [{"name": name, "size": Path(path).stat().st_size} for name, path in sorted(files.items())],
        }


def resolve(root, cache_dir, pyodide_dir=None, choice="auto", log=print):
    """Return the Runtime to ship, following the order above; raises RuntimeUnavailable."""
    if pyodide_dir:
        runtime = from_folder(Path(pyodide_dir))
        runtime.reason = "the folder {} was named".format(pyodide_dir)
        return runtime
    if choice in ("auto", "official"):
        try:
            return official(root, cache_dir)
        except RuntimeUnavailable as error:
            if choice == "official":
                raise
            log("WARNING: falling back to the legacy Pyodide {} distribution, because {}.".format(
                LEGACY_VERSION, error))
            runtime = legacy(cache_dir, log)
            runtime.reason = "fallback, because {}".format(error)
            return runtime
    if choice == "legacy":
        runtime = legacy(cache_dir, log)
        runtime.reason = "asked for with --runtime legacy"
        return runtime
    raise RuntimeUnavailable("unknown runtime choice '{}' (use auto, official or legacy)".format(choice))


def from_folder(folder):
    """Describe an unpacked Pyodide distribution of either generation."""
    if (folder / "pyodide.mjs").exists():
        lock = json.loads((folder / "pyodide-lock.json").read_text())
        files = _existing(folder, MODULE_FILES)
        packages = []
        numpy = lock.get("packages", {}).get("numpy")
        if numpy and (folder / numpy["file_name"]).exists():
            files[numpy["file_name"]] = folder / numpy["file_name"]
            packages.append("numpy")
        version = _npm_version(folder) or lock.get("info", {}).get("version", "unknown")
        return Runtime("folder", "module", version, lock["info"]["python"], files, packages)
    if (folder / "pyodide.js").exists() and (folder / "packages.json").exists():
        files = _existing(folder, CLASSIC_FILES)
        packages = []
        for name, names in CLASSIC_PACKAGE_FILES.items():
            if all((folder / each).exists() for each in names):
                files.update({each: folder / each for each in names})
                packages.append(name)
        return Runtime("folder", "classic", _npm_version(folder.parent) or LEGACY_VERSION, "3.8", files, packages)
    raise RuntimeUnavailable("{} is not a Pyodide distribution (no pyodide.mjs, nor pyodide.js with "
                             "packages.json)".format(folder))


def official(root, cache_dir):
    """The pinned npm `pyodide` plus its official NumPy wheel, verified by sha256."""
    package = root / "node_modules" / "pyodide"
    if not (package / "pyodide.mjs").exists():
        raise RuntimeUnavailable("node_modules/pyodide is missing (run 'npm ci')")
    lock = json.loads((package / "pyodide-lock.json").read_text())
    version = _npm_version(package)
    wheel = lock["packages"]["numpy"]
    target = cache_dir / "wheels" / wheel["file_name"]
    if not target.exists():
        _download(OFFICIAL_WHEEL_URL.format(version=version, file_name=wheel["file_name"]), target, wheel["sha256"])
    elif _sha256(target) != wheel["sha256"]:
        target.unlink()
        raise RuntimeUnavailable("the cached {} did not match its sha256 and was removed".format(target.name))
    files = _existing(package, MODULE_FILES)
    files[wheel["file_name"]] = target
    return Runtime("official", "module", version, lock["info"]["python"], files, ["numpy"],
                   "npm pyodide {} with its NumPy wheel (sha256 checked)".format(version))


def legacy(cache_dir, log=print):
    """The registry-only Pyodide 0.17.1 full distribution, unpacked into the cache once."""
    folder = cache_dir / ("pyodide-" + LEGACY_VERSION)
    wanted = CLASSIC_FILES + tuple(name for names in CLASSIC_PACKAGE_FILES.values() for name in names)
    if not all((folder / name).exists() for name in wanted):
        _fetch_legacy(folder, wanted, log)
    runtime = from_folder(folder)
    runtime.kind = "legacy"
    runtime.version = LEGACY_VERSION
    return runtime


def add_micropip(runtime, cache_dir, log=print):
    """Ship micropip with the runtime (for lessons with `packages:`); raises RuntimeUnavailable."""
    if runtime.worker == "module":
        for name, sha256 in MICROPIP_WHEELS.items():
            target = cache_dir / "wheels" / name
            if not target.exists() or _sha256(target) != sha256:
                _pip_download(name, target, sha256, log)
            runtime.files[name] = target
        runtime.micropip = sorted(MICROPIP_WHEELS)
        runtime.micropip_files = sorted(MICROPIP_WHEELS)
        return runtime
    home = Path(runtime.files["pyodide.js"]).parent
    if not all((home / name).exists() for name in LEGACY_MICROPIP_FILES):
        home = cache_dir / ("pyodide-" + LEGACY_VERSION + "-micropip")
        if not all((home / name).exists() for name in LEGACY_MICROPIP_FILES):
            _fetch_legacy(home, LEGACY_MICROPIP_FILES, log)
    runtime.files.update({name: home / name for name in LEGACY_MICROPIP_FILES})
    runtime.micropip = ["micropip"]
    runtime.micropip_files = list(LEGACY_MICROPIP_FILES)
    return runtime


def _pip_download(name, target, sha256, log):
    """Download one pure wheel, named by its file name, from PyPI with pip, and check its sha256."""
    project, version = name.split("-")[:2]
    log("Downloading {} from PyPI (once)...".format(name))
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                               "--implementation", "py", "--abi", "none", "--platform", "any",
                               "--python-version", "3.14", "--dest", folder, "--progress-bar", "off", "{}=={}".format(project, version)],
                              capture_output=True, text=True, timeout=600)
        got = Path(folder) / name
        if done.returncode != 0 or not got.exists():
            raise RuntimeUnavailable("pip could not download {} ({})".format(name, done.stderr.strip()[-300:]))
        if _sha256(got) != sha256:
            raise RuntimeUnavailable("{} from PyPI did not match its sha256".format(name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(got, target)


def _fetch_legacy(folder, wanted, log):
    staged = staging.new_folder(folder)
    try:
        _unpack_legacy(staged, wanted, log)
    except BaseException:
        staging.discard(staged)
        raise
    staging.place(staged, folder, replace=True)


def _unpack_legacy(staged, wanted, log):
    log("Fetching {} from the npm registry (about 185 MB, once)...".format(LEGACY_PACKAGE))
    try:
        done = subprocess.run(["npm", "pack", LEGACY_PACKAGE, "--silent", "--pack-destination", str(staged)],
                              capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise RuntimeUnavailable("npm pack {} failed: {}".format(LEGACY_PACKAGE, error)) from error
    tarballs = list(staged.glob("*.tgz"))
    if done.returncode != 0 or not tarballs:
        raise RuntimeUnavailable("npm pack {} failed: {}".format(LEGACY_PACKAGE, done.stderr.strip()[-300:]))
    with tarfile.open(tarballs[0]) as archive:
        for name in wanted:
            member = archive.getmember("package/dist/" + name)
            with archive.extractfile(member) as source, open(staged / name, "wb") as target:
                shutil.copyfileobj(source, target)
    tarballs[0].unlink()


def _download(url, target, sha256):
    partial = staging.new_file(target)
    try:
        with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT) as response, open(partial, "wb") as out:
            shutil.copyfileobj(response, out)
    except OSError as error:
        partial.unlink(missing_ok=True)
        reason = getattr(error, "reason", error)
        raise RuntimeUnavailable("the official NumPy wheel could not be downloaded from {} ({})".format(url, reason)) from error
    if _sha256(partial) != sha256:
        partial.unlink()
        raise RuntimeUnavailable("the NumPy wheel from {} did not match the sha256 in pyodide-lock.json".format(url))
    staging.place(partial, target)


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _existing(folder, names):
    missing = [name for name in names if not (folder / name).exists()]
    if missing:
        raise RuntimeUnavailable("{} lacks {}".format(folder, ", ".join(missing)))
    return {name: folder / name for name in names}


def _npm_version(folder):
    package = folder / "package.json"
    if package.exists():
        return json.loads(package.read_text()).get("version")
    return None
