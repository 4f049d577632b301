"""Build the whole site: load, parse, check, execute, render, then write atomically."""

import glob
import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from . import assets, checking, editions, execute, glue_role, i18n, packages, render, runner, scorm, service_worker, spoilers
from . import lesson as lessons_module
from . import runtime as runtime_module
from .blocks.explorable import known_modules as known_explorables
from .errors import BuildFailed, Collector, LessonError
from .exercise_names import hidden_cell_errors, visible_solution_warnings
from .links import absent_lessons
from .links import check as check_links

LIBRARY = "course-lib.json"  # the general course library for the worker, under assets/


@dataclass
class Config:
    """Where things are and how to build; defaults live in cli.py."""

    root: Path
    lessons_dir: Path
    out_dir: Path
    cache_dir: Path
    cell_timeout: float
    pyodide_dir: str = None
    runtime: str = "auto"
    index_language: str = "en"
    scorm: bool = False  # also write scorm/<lesson>-<language>.zip, a SCORM 1.2 package per page (scorm.py)
    lesson: str = None  # build only this lesson folder, with its editions: a course of one lesson (find_lesson)


def build(config, log=print):
    """Build the site into config.out_dir; raise BuildFailed and leave the old site if anything is wrong."""
    started = time.monotonic()
    strings, errors = assets.load_strings(config.root / "site")
    lessons, parse_errors = load_lessons(config)
    errors += parse_errors
    if errors:
        raise BuildFailed(errors)
    wheels, errors = resolve_packages(lessons, config.cache_dir, log)
    if errors:
        raise BuildFailed(errors)
    try:
        runtime = runtime_module.resolve(config.root, config.cache_dir, config.pyodide_dir, config.runtime, log)
    except runtime_module.RuntimeUnavailable as error:
        raise BuildFailed([LessonError(Path("build.py"), None, "no Pyodide runtime: {}".format(error))]) from error
    if any(wheels.values()):
        try:
            runtime_module.add_micropip(runtime, config.cache_dir, log)
        except runtime_module.RuntimeUnavailable as error:
            raise BuildFailed([LessonError(Path("build.py"), None, "lessons list packages, but micropip for this "
                                           "runtime could not be had: {}".format(error))]) from error
    log("Runtime: " + runtime.describe())
    warn_missing_packages(lessons, runtime, log)
    for path, line, message in absent_lessons(pages(lessons), i18n.languages(), config.lessons_dir, config.lesson):
        log("WARNING: {}:{}: {}".format(path, line, message))
    warn_unused_explorables(lessons, log)
    py_dir = config.root / "py"
    python = runner.Settings(py_dir, config.cache_dir, runner.library_digest(py_dir), config.cell_timeout)
    outputs, glued = {}, {}
    for lesson in pages(lessons):
        try:
            settings = python.for_lesson(lesson, wheels[lesson.slug])
        except packages.PackageError as error:
            errors.append(LessonError(lesson.path, lessons_module.package_line(lesson.tokens[0], error.entry),
                                      str(error)))
            continue
        label = strings[lesson.language]["cell_label"]
        outputs[lesson.key], glued[lesson.key], glued_by, cell_errors = execute.run_cells(lesson, label, settings)
        errors += cell_errors
        errors += checking.check_exercises(lesson, settings)
        errors += hidden_cell_errors(lesson)  # exercise.function is known once its checker ran
        # A visible cell above an exercise that holds its solution gives the answer away: refused, as every lesson
        # of the course now passes it (a find-the-bug exercise's cell may show what its starter already hands out).
        errors += [LessonError(lesson.path, line, message) for line, message in visible_solution_warnings(lesson)]
        role_errors = Collector(lesson.path)
        for explorable, problem in execute.draw_explorables(lesson, strings[lesson.language], settings):
            if problem:
                role_errors.error(explorable.line, problem)
            glued[lesson.key].update(explorable.glue)
        glue_role.check(lesson, glued[lesson.key], role_errors)
        if not cell_errors:
            spoilers.check(lesson, strings[lesson.language], outputs[lesson.key], glued[lesson.key], glued_by,
                           role_errors)
        errors += role_errors.errors
    if errors:
        raise BuildFailed(errors)
    for line in write_site(config, lessons, strings, outputs, glued, runtime, wheels):
        log(line)
    extra = len(pages(lessons)) - len(lessons)
    log("Built {} lesson(s){} into {} in {:.1f} s".format(
        len(lessons), " and {} edition(s)".format(extra) if extra else "", config.out_dir, time.monotonic() - started))
    if config.lesson:
        log("This site is a course of {} alone: its index and path show no other lesson, and links to other "
            "lessons lead nowhere here (build without --lesson for the whole course).".format(config.lesson))


def find_lesson(lessons_dir, name):
    """The lesson folder that `name` means: the folder's name (005-position-and-block), the part after its number
    (position-and-block) or a path ending in it; a ValueError names the lessons there are."""
    folders = sorted(path.parent.name for path in Path(lessons_dir).glob("*/{}".format(lessons_module.PRIMARY_FILE)))
    if not name.strip():  # '--lesson ""' (an unset variable) must not build the whole course in silence
        raise ValueError("an empty name names no lesson; name one by its folder (lessons: {}), or leave --lesson out "
                         "to build the whole course".format(", ".join(folders) or "none"))
    wanted = Path(name).name
    found = [folder for folder in folders if wanted in (folder, re.sub(r"^[0-9]+[-_]", "", folder))]
    if len(found) == 1:
        return found[0]
    if found:
        raise ValueError("'{}' names {} lessons ({}); name one by its folder".format(name, len(found), ", ".join(found)))
    raise ValueError("no lesson '{}' in {} (lessons: {})".format(name, lessons_dir, ", ".join(folders) or "none"))


def load_lessons(config):
    """Parse every lessons/<slug>/lesson.md and its editions (lesson.<language>.md), in course order; collect all
    errors. Each lesson lists its editions, itself first (`editions`); pages() flattens them. With config.lesson,
    only that folder's: the course is that one lesson."""
    files, errors = [], []
    for path in sorted(config.lessons_dir.glob("{}/lesson*.md".format(glob.escape(config.lesson or "") or "*"))):
        if path.name != lessons_module.PRIMARY_FILE and lessons_module.edition_of(path) is None:
            continue  # lesson-notes.md and the like are the author's, not the course's
        lesson, lesson_errors = lessons_module.read_lesson(path)
        files.append(lesson)
        errors += lesson_errors
    lessons, edition_errors = editions.group(files)
    if not lessons:
        errors.append(LessonError(config.lessons_dir, None, "no lessons found; add lessons/<name>/lesson.md"))
    errors += edition_errors
    errors += lessons_module.check_orders(lessons)
    errors += lessons_module.check_packages(lessons)
    errors += [LessonError(lesson.path, None, "the folder name '{}' is where the course index in that language "
                           "goes; rename the folder (for example '{}-{}')".format(lesson.slug, "010", lesson.slug))
               for lesson in lessons if lesson.slug in i18n.languages()]
    lessons.sort(key=lambda lesson: (lesson.order, lesson.slug))
    if not errors:  # a link is checked against pages that parsed
        errors += check_links(pages(lessons), i18n.languages(), config.lessons_dir, config.lesson)
    return lessons, errors


def pages(lessons):
    """Every page of the course in order: each lesson's editions, lesson.md first."""
    return [edition for lesson in lessons for edition in lesson.editions]


def resolve_packages(lessons, cache_dir, log):
    """({slug: [Wheel]}, errors): each lesson's `packages:` resolved to pure wheels, each error at its entry's line."""
    wheels, errors = {}, []
    for lesson in lessons:
        try:
            wheels[lesson.slug] = packages.resolve(lesson.packages, cache_dir, log) if lesson.packages else []
            if lesson.folder is not None and ((lesson.folder / lesson.package).exists()
                                              or (lesson.folder / (lesson.package + ".py")).exists()):
                packages.check_own_package(wheels[lesson.slug], lesson.packages, lesson.package)
        except packages.PackageError as error:
            line = lessons_module.package_line(lesson.tokens[0], error.entry)
            errors.append(LessonError(lesson.path, line, str(error)))
    return wheels, errors


def warn_missing_packages(lessons, runtime, log):
    """Say loudly when lessons import NumPy but the runtime cannot load it."""
    if "numpy" in runtime.packages:
        return
    needing = [lesson.slug for lesson in lessons if any("numpy" in cell.code for cell in lesson.cells)]
    if needing:
        log("WARNING: this runtime has no NumPy, so the NumPy cells of {} will fail in the browser.".format(
            ", ".join(needing)))


def warn_unused_explorables(lessons, log):
    """Name the explorable modules of a lesson's package that its lesson.md never uses (the build skips them)."""
    for lesson in lessons:
        used = {explorable.module.rsplit(".", 1)[-1] for explorable in lesson.explorables}
        for name in known_explorables(lesson):
            if name not in used:
                log("WARNING: {}/{}/explorables/{}.py is not used by {}; it is not drawn or checked".format(
                    lesson.slug, lesson.package, name, lesson.path))


def write_site(config, lessons, strings, outputs, glued, runtime, wheels):
    """Write every file into a fresh folder, then swap it in place of the old site; the lines to report."""
    out_dir = config.out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    # Folders a build killed while writing left behind: staging ones (tempfile's 8 characters) and the old site.
    leftover = re.compile(re.escape(out_dir.name) + r"\.([a-z0-9_]{8}|old)")
    for stale in out_dir.parent.glob(out_dir.name + ".*"):
        if leftover.fullmatch(stale.name) and stale.is_dir() and not stale.is_symlink():
            shutil.rmtree(stale, ignore_errors=True)
    staging = Path(tempfile.mkdtemp(prefix=out_dir.name + ".", dir=out_dir.parent))
    try:
        lines = _write_files(config, staging, lessons, strings, outputs, glued, runtime, wheels)
        _swap(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return lines


def _write_files(config, staging, lessons, strings, outputs, glued, runtime, wheels):
    assets_dir = staging / "assets"
    assets_dir.mkdir()
    assets.bundle(config.root, config.cache_dir, assets_dir)
    assets.copy_static(config.root, assets_dir)
    library = json.dumps(assets.course_library(config.root / "py"), sort_keys=True)
    (assets_dir / LIBRARY).write_text(library, encoding="utf-8")
    for lesson in lessons:  # editions share their lesson's package
        if lesson.package_dir is not None:
            package = json.dumps(assets.lesson_library(lesson), sort_keys=True)
            (assets_dir / lesson_library_name(lesson)).write_text(package, encoding="utf-8")
    runtime_dir = staging / "runtime"
    runtime_dir.mkdir()
    for name, source in runtime.files.items():
        _link_or_copy(Path(source), runtime_dir / name)
    shared = dict(cache=service_worker.runtime_cache_name(runtime_dir), entry=assets.WORKER_ENTRIES[runtime.worker],
                  stopFlag=service_worker.STOP_FLAG)
    if runtime.worker == "module":  # Pyodide 314 can copy its memory for later starts; the legacy 0.17 cannot
        shared["snapshot"] = service_worker.SNAPSHOT
    # Lessons' wheels sit beside the runtime and go in its cache, which they do not rename: a wheel's
    # name pins its bytes, so a lesson that adds a package keeps the learner's cached runtime.
    for wheel in {wheel.file_name: wheel for each in wheels.values() for wheel in each}.values():
        (runtime_dir / "packages").mkdir(exist_ok=True)
        _link_or_copy(wheel.path, runtime_dir / "packages" / wheel.file_name)
    build = service_worker.build_id(assets_dir)
    md = lessons_module.markdown()
    packaged = {}
    for lesson in pages(lessons):
        libraries = [LIBRARY] + ([lesson_library_name(lesson)] if lesson.package_dir is not None else [])
        lesson_wheels = [wheel.data() for wheel in wheels.get(lesson.slug, [])]
        lesson_manifest = dict(runtime.manifest(micropip=bool(lesson_wheels)), wheels=lesson_wheels, **shared)
        page = render.lesson_page(lesson, md, strings[lesson.language], outputs.get(lesson.key, {}),
                                  glued.get(lesson.key, {}), build, libraries, lesson_manifest,
                                  render.path_nav(lesson, lessons, strings), render.edition_links(lesson, strings),
                                  render.index_path(lesson.language, config.index_language))
        (staging / lesson.page_dir).mkdir(parents=True)
        (staging / lesson.page_dir / "index.html").write_text(page, encoding="utf-8")
        if config.scorm:  # the page alone: no path through the course nor other editions, which it lacks
            alone = render.lesson_page(lesson, md, strings[lesson.language], outputs.get(lesson.key, {}),
                                       glued.get(lesson.key, {}), build, libraries, lesson_manifest)
            files = scorm.package_files(staging, lesson, libraries, lesson_manifest,
                                        [wheel["file"] for wheel in lesson_wheels], shared["entry"])
            packaged[scorm.package_name(lesson)] = (lesson, alone, files)
    for language in render.index_languages(lessons, config.index_language):  # the course index in each language
        index = staging / render.index_path(language, config.index_language)
        index.parent.mkdir(exist_ok=True)
        index.write_text(render.index_page(lessons, strings, language, config.index_language), encoding="utf-8")
    (staging / ".nojekyll").write_text("", encoding="utf-8")
    service_worker.write(config.root / "site" / "sw.js", staging, build, shared["cache"])
    # After the service worker's lists: a package is for a platform, not for the site's offline set.
    sizes = {name: scorm.write_package(staging / "scorm" / name, *package) for name, package in packaged.items()}
    os.chmod(staging, 0o755)
    runtime_bytes = sum(entry["size"] for entry in runtime.manifest()["files"])
    return scorm.report(sizes, runtime_bytes) if config.scorm else []


def lesson_library_name(lesson):
    """The file under assets/ that holds one lesson's package, which only that lesson's page loads."""
    return "lesson-{}.json".format(lesson.package)


def _link_or_copy(source, target):
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def _swap(staging, out_dir):
    """Replace out_dir by staging with two renames, so readers never see a half-written site."""
    old = None
    if out_dir.exists():
        old = out_dir.with_name(out_dir.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        out_dir.rename(old)
    staging.rename(out_dir)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
