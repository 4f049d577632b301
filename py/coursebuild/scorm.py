"""SCORM 1.2 packages: one zip per lesson edition, `scorm/<lesson>-<language>.zip`, for a learning platform.

A package holds imsmanifest.xml (one organization, one item, one SCO resource listing every file) and the
lesson's page with everything it loads: the page script and styles, the worker, the course library and the
lesson's own package, the runtime files its manifest lists and its wheels. Paths keep the site's layout, so the
page's relative URLs hold. Left out: the service worker (a platform serves the package under its own path, and
the course-wide offline set names files the package lacks; the page, marked as packaged, registers none), the
index, other lessons (a link to one becomes text naming it). The manifest names no schema files: no registry
package ships SCORM's XSDs under a licence that allows shipping them. The page talks to the platform through
site/page/scorm.js.
"""

import html
import re
import urllib.parse
import zipfile
from pathlib import Path

# A fixed time for every member, so the same build writes the same bytes.
ZIP_TIME = (2020, 1, 1, 0, 0, 0)
# Page assets every lesson loads; the lesson's own package and worker entry are added per lesson.
PAGE_ASSETS = ("page.js", "editor.js", "style.css", "worker-handler.js", "course-math.woff", "OFL.txt")
HOME_LINK = re.compile(r'<header class="site-header"><a href="[^"]*index\.html">(.*?)</a></header>')
# A link from the page (in <lesson>/ or <lesson>/<language>/) up and out of its own folder: another lesson.
UP_LINK = re.compile(r'<a href="((?:\.\./)+)([^"#]*)(#[^"]*)?"[^>]*>(.*?)</a>', re.S)
PAGE_TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def package_name(lesson):
    """The zip's file name under scorm/: <lesson folder>-<language>.zip."""
    return "{}-{}.zip".format(lesson.slug, lesson.language)


def identifier(text):
    """An XML ID (letters, digits, '-', '_', '.'; a letter first) made from `text`."""
    return "course-" + re.sub(r"[^A-Za-z0-9_.-]", "-", text)


def packaged_page(page_html, page_dir="", site_dir=None):
    """The lesson page as the package holds it: the course's home link and links to other lessons, which the
    package lacks, as plain text (naming the lesson, read from its page in `site_dir`, when the text does not);
    the body marked as packaged, so the page registers no service worker."""
    page = HOME_LINK.sub(r'<header class="site-header"><span>\1</span></header>', page_html)
    page = UP_LINK.sub(lambda match: _lesson_text(match, page_dir, site_dir), page)
    return page.replace('<body class="', '<body data-package="scorm" class="', 1)


def _lesson_text(match, page_dir, site_dir):
    """The text of a link to another lesson, followed by that lesson's title when the text is not its title."""
    ups, target, _, text = match.groups()
    own = [part for part in page_dir.split("/") if part]
    path = own[: max(0, len(own) - len(ups) // 3)] + [part for part in target.split("/") if part]
    if path[:1] in (["assets"], ["runtime"]) or path in (own, own + ["index.html"]):
        return match.group(0)  # in the package
    title = None
    if site_dir is not None:
        page_file = Path(site_dir, *path)
        page_file = page_file if page_file.suffix == ".html" else page_file / "index.html"
        if page_file.is_file():
            found = PAGE_TITLE.search(page_file.read_text(encoding="utf-8"))
            title = found.group(1).strip() if found else None
    named = text if title is None or html.unescape(re.sub(r"<[^>]+>", "", text)).strip() == html.unescape(title) \
        else "{} ({})".format(text, title)
    return '<span class="other-lesson">{}</span>'.format(named)


def manifest(lesson, files):
    """imsmanifest.xml for one lesson edition whose page and `files` (paths in the package) make one SCO."""
    ident = identifier(lesson.key)
    title = html.escape(xml_text(lesson.meta["title"]))
    listed = "\n".join('      <file href="{}"/>'.format(html.escape(href(name))) for name in files)
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<manifest identifier="{ident}" version="1.0"\n'
        '  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"\n'
        '  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">\n'
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
    ).format(ident=ident, title=title, page=html.escape(href(lesson.page_dir + "index.html")), files=listed)


def xml_text(text):
    """`text` as XML 1.0 may hold it: control characters (which no XML document may contain) as spaces."""
    return re.sub(r"\s+", " ", re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", " ", text)).strip()


def href(path):
    """A path in the package as a manifest's href, a URI reference: percent-encoded but for its slashes."""
    return urllib.parse.quote(path, safe="/")


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
        _add(archive, page_path, packaged_page(page_html, lesson.page_dir, target.parent.parent).encode("utf-8"))
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
