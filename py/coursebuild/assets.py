"""Front-end assets: bundle the page script and the editor, copy styles and worker files.

The page controller is bundled as a classic script so that a page opened from
disk still runs it (browsers refuse module scripts from file://); the editor is
an ES module loaded on first edit. Bundles are cached by the hash of their inputs.
"""

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

from . import i18n, staging
from .errors import LessonError

BUNDLES = (
    # (entry under site/, output under assets/, esbuild format)
    ("page/main.js", "page.js", "iife"),
    ("editor/editor.js", "editor.js", "esm"),
)
# The worker's entry file for each kind of runtime worker, under assets/: the one place that names them (the page
# reads its entry from the runtime manifest, the service worker its policies from its own manifest).
WORKER_ENTRIES = {"module": "worker-module.mjs", "classic": "worker-classic.js"}
COPIED = ("style.css", "worker/worker-handler.js") + tuple("worker/" + name for name in WORKER_ENTRIES.values())
COPIED += ("fonts/course-math.woff", "fonts/OFL.txt")  # the math font (style.css) and its licence


def load_strings(site_dir):
    """The UI strings of every language; a key missing from any table, or a malformed number format, is an error."""
    tables = {lang: json.loads((site_dir / "i18n" / (lang + ".json")).read_text(encoding="utf-8"))
              for lang in i18n.languages(site_dir / "i18n")}
    errors = []
    keys = set().union(*tables.values())
    for lang, table in tables.items():
        for key in sorted(keys - set(table)):
            errors.append(LessonError(Path("site/i18n/{}.json".format(lang)), None,
                                      "the UI string '{}' is missing; add it in this language".format(key)))
    if not errors:
        try:
            i18n.number_formats(site_dir / "i18n")
        except LessonError as error:
            errors.append(error)
    return tables, errors


def bundle(root, cache_dir, out_dir):
    """Write the esbuild bundles into out_dir, reusing cached ones."""
    digest = _inputs_digest(root)
    cached = cache_dir / "bundles" / digest
    if not all((cached / output).exists() for _, output, _ in BUNDLES):
        esbuild = root / "node_modules" / ".bin" / "esbuild"
        if not esbuild.exists():
            raise LessonError(Path("package.json"), None, "esbuild is not installed; run 'npm ci' first")
        staged = staging.new_folder(cached)
        for entry, output, form in BUNDLES:
            command = [str(esbuild), str(root / "site" / entry), "--bundle", "--minify", "--format=" + form,
                       "--target=es2020", "--legal-comments=none", "--outfile=" + str(staged / output)]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                staging.discard(staged)
                raise LessonError(Path("site") / entry, None, "esbuild failed: " + done.stderr.strip()[-2000:])
        staging.place(staged, cached, replace=cached.exists() and not all(
            (cached / output).exists() for _, output, _ in BUNDLES))
    for _, output, _ in BUNDLES:
        shutil.copyfile(cached / output, out_dir / output)


def copy_static(root, out_dir):
    """Copy the stylesheet and the worker files as they are."""
    for name in COPIED:
        shutil.copyfile(root / "site" / name, out_dir / Path(name).name)


def course_library(py_dir):
    """The course library as {relative path: source}, for the worker to write to its file system."""
    files = {}
    for path in sorted((py_dir / "course").rglob("*.py")):
        files[str(path.relative_to(py_dir).as_posix())] = path.read_text(encoding="utf-8")
    # course.numbers reads each language's marks from site/i18n, which the browser does not have.
    files["course/number_formats.json"] = json.dumps(i18n.number_formats(), sort_keys=True)
    return files


def lesson_library(lesson):
    """A lesson's own package as {relative path: source}, written beside the course library in the worker."""
    folder = lesson.package_dir
    return {"{}/{}".format(lesson.package, path.relative_to(folder).as_posix()): path.read_text(encoding="utf-8")
            for path in sorted(folder.rglob("*.py"))}


def _inputs_digest(root):
    digest = hashlib.sha256()
    # JSON too: the bundles import site/whitelist.json.
    paths = sorted((root / "site").rglob("*.js")) + sorted((root / "site").glob("*.json")) + [root / "package-lock.json"]
    for path in paths:
        if path.exists():
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:20]
