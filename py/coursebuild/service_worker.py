"""Write the service worker (sw.js with its manifest) and offline.json, the list the "available offline" control downloads.

Two caches: the runtime (the Pyodide distribution with NumPy), named after the hash
of its files so a rebuild that leaves it alone keeps it; and the site (pages,
scripts, styles, the worker glue and the course library, which change far more
often), named after the hash of the whole build.
"""

import hashlib
import json

from .assets import WORKER_ENTRIES

# The stop flag's URL path under the site and the message that raises it: the service worker and the page both
# read them from here (sw.js's manifest, the page's runtime manifest).
STOP_FLAG = {"path": "__course_stop__/", "message": "course-stop"}
# Where a fresh interpreter's memory is kept (in the runtime's cache, under this path of the site) and the message
# that hands it to the service worker to store: read by both, like STOP_FLAG. Only Pyodide 314 makes one.
SNAPSHOT = {"path": "runtime/course-snapshot.bin.gz", "message": "course-snapshot"}


def _digest(paths, root):
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def build_id(assets_dir):
    """A hash of the front end and the course library: what a page loads lazily must carry the same one."""
    return _digest(sorted(path for path in assets_dir.iterdir() if path.is_file()), assets_dir)


def runtime_cache_name(runtime_dir):
    """The runtime cache's name: the same for as long as the distribution's files do not change.

    Lessons' wheels (runtime/packages/) share the cache without naming it: each one's file name pins its bytes.
    """
    return "course-runtime-" + _digest(sorted(path for path in runtime_dir.iterdir() if path.is_file()),
                                       runtime_dir.parent)


def write(template, site, build, runtime_cache):
    """Write sw.js (the service worker with its manifest) and offline.json (what to fetch for offline use)."""
    runtime = sorted(path for path in (site / "runtime").rglob("*") if path.is_file())  # lessons' wheels included
    runtime_paths = {path.relative_to(site).as_posix() for path in runtime}
    everything = sorted(path for path in site.rglob("*") if path.is_file() and path.name != ".nojekyll")
    site_paths = [path.relative_to(site).as_posix() for path in everything
                  if path.relative_to(site).as_posix() not in runtime_paths] + ["offline.json"]
    manifest = {
        "version": _digest(everything, site),
        "assets": build,
        # Files a page loads later are checked against these, so a deploy in between is noticed.
        "hashes": {path.relative_to(site).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
                   for path in sorted((site / "assets").iterdir())},
        "runtimeCache": runtime_cache,
        "stopFlag": STOP_FLAG,
        "snapshot": SNAPSHOT,
        # The worker entries, by kind: the service worker gives each its content policy.
        "workers": {"assets/" + name: kind for kind, name in WORKER_ENTRIES.items()},
        "runtime": sorted(runtime_paths),
        "site": site_paths,
    }
    manifest["siteCache"] = "course-site-" + manifest["version"]
    sizes = {path.relative_to(site).as_posix(): path.stat().st_size for path in everything}
    offline = dict(manifest, files=[{"path": path, "size": sizes[path],
                                     "cache": manifest["runtimeCache"] if path in runtime_paths else manifest["siteCache"]}
                                    for path in sorted(sizes)])
    (site / "offline.json").write_text(json.dumps(offline, sort_keys=True), encoding="utf-8")
    script = "const MANIFEST = {};\n{}".format(json.dumps(manifest, sort_keys=True), template.read_text(encoding="utf-8"))
    (site / "sw.js").write_text(script, encoding="utf-8")
