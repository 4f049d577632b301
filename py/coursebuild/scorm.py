"""SCORM 1.2 packages: one zip per lesson edition, `scorm/<lesson>-<language>.zip`, for a learning platform.

A package holds imsmanifest.xml (one organization, one item, one SCO resource listing every file) and the
lesson's page with everything it loads: the page script and styles, the worker, the course library and the
lesson's own package, the runtime files its manifest lists and its wheels. Paths keep the site's layout, so the
page's relative URLs hold. Left out: the service worker (a platform serves the package under its own path, and
the course-wide offline set names files the package lacks), the index, other lessons. The page talks to the
platform through site/page/scorm.js.
"""

import html
import re
import zipfile
from pathlib import Path

# A fixed time for every member, so the same build writes the same bytes.
ZIP_TIME = (2020, 1, 1, 0, 0, 0)
# Page assets every lesson loads; the lesson's own package and worker entry are added per lesson.
PAGE_ASSETS = ("page.js", "editor.js", "style.css", "worker-handler.js", "course-math.woff", "OFL.txt")
HOME_LINK = re.compile(r'<header class="site-header"><a href="[^"]*index\.html">(.*?)</a></header>')


def package_name(lesson):
    """The zip's file name under scorm/: <lesson folder>-<language>.zip."""
    return "{}-{}.zip".format(lesson.slug, lesson.language)


def identifier(text):
    """An XML ID (letters, digits, '-', '_', '.'; a letter first) made from `text`."""
    return "course-" + re.sub(r"[^A-Za-z0-9_.-]", "-", text)


def packaged_page(page_html):
    """The lesson page as the package holds it: the course's home link, which the package lacks, as plain text."""
    return HOME_LINK.sub(r'<header class="site-header"><span>\1</span></header>', page_html)


def manifest(lesson, files):
    """imsmanifest.xml for one lesson edition whose page and `files` (paths in the package) make one SCO."""
    ident = identifier(lesson.key)
    title = html.escape(lesson.meta["title"])
    listed = "\n".join('      <file href="{}"/>'.format(html.escape(name)) for name in files)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<manifest identifier="{ident}" version="1.0"\n'
        '  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"\n'
        '  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"\n'
        '  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"\n'
        '  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd '
        'http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd '
        'http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">\n'
        "  <metadata>\n    <schema>ADL SCORM</schema>\n    <schemaversion>1.2</schemaversion>\n  </metadata>\n"
        '  <organizations default="{ident}-org">\n'
        '    <organization identifier="{ident}-org">\n'
        "      <title>{title}</title>\n"
        '      <item identifier="{ident}-item" identifierref="{ident}-sco" isvisible="true">\n'
        "        <title>{title}</title>\n"
        "      </item>\n"
        "    </organization>\n"
        "  </organizations>\n"
        "  <resources>\n"
        '    <resource identifier="{ident}-sco" type="webcontent" adlcp:scormtype="sco" href="{page}">\n'
        "{files}\n"
        "    </resource>\n"
        "  </resources>\n"
        "</manifest>\n"
    ).format(ident=ident, title=title, page=html.escape(lesson.page_dir + "index.html"), files=listed)


def package_files(site_dir, lesson, libraries, runtime_manifest, wheel_files, worker_entry):
    """{path in the package: file in the built site} of everything the lesson's page loads, but the page itself."""
    names = ["assets/" + name for name in PAGE_ASSETS + (worker_entry,) + tuple(libraries)]
    names += ["runtime/" + entry["name"] for entry in runtime_manifest["files"]]
    names += ["runtime/" + name for name in wheel_files]  # each "packages/<wheel>", as the page data names it
    return {name: Path(site_dir) / name for name in sorted(set(names))}


def write_package(target, lesson, page_html, files):
    """Write one package: the manifest first, then the page and `files` ({path: source}); its size in bytes."""
    page_path = lesson.page_dir + "index.html"
    members = sorted(set(files) | {page_path})
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(str(target), "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        _add(archive, "imsmanifest.xml", manifest(lesson, members).encode("utf-8"))
        _add(archive, page_path, packaged_page(page_html).encode("utf-8"))
        for name in sorted(files):
            _add(archive, name, Path(files[name]).read_bytes())
    return target.stat().st_size


def _add(archive, name, data):
    info = zipfile.ZipInfo(name, ZIP_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data)


def report(sizes, runtime_bytes):
    """The lines the build prints: each package's size, and what a class downloads."""
    lines = ["SCORM 1.2 package {} ({:.1f} MB)".format(name, size / 1e6) for name, size in sorted(sizes.items())]
    if sizes:
        lines.append(
            "SCORM: {} package(s), {:.1f} MB in all. Each carries its own runtime ({:.1f} MB before compression): "
            "a platform unpacks every package apart, so each student downloads it once per lesson they open "
            "(a browser caches it per package URL, not across lessons).".format(
                len(sizes), sum(sizes.values()) / 1e6, runtime_bytes / 1e6))
    return lines
