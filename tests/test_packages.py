"""A lesson's `packages:`: resolved once with pip to pure wheels, refused at file:line, installed for its cells."""

import json
import re
import zipfile

import pytest
from test_build import build, write_lesson

from coursebuild import packages

HEADER = "---\ntitle: T\nlanguage: en\norder: 1\nsummary: S\n{packages}\n---\n\n"
PRINT_VERSION = "```{code-cell} ipython3\nimport einops\nprint(einops.__version__)\n```\n"


def lesson_with(packages_line, body=PRINT_VERSION):
    return HEADER.format(packages=packages_line) + body


@pytest.mark.parametrize("packages_line, line, message", [
    ("packages: [pyyaml==6.0.2]", 6, "pyyaml 6.0.2 has no pure-Python wheel (py3-none-any) on PyPI"),
    ("packages: [einops==0.8.2]", 6, "einops==0.8.2 requires Python >=3.9, which excludes Python 3.8 (the legacy "
                                     "runtime); pick a version that supports Python 3.8 and 3.14"),
    ("packages: [einops==99.0]", 6, "einops has no version 99.0 on PyPI"),
    ("packages: [no-such-package-for-this-course==1.0]", 6, "PyPI has no package named "
                                                             "'no-such-package-for-this-course'"),
    ("packages:\n  - einops==0.8.1\n  - numpy==1.17.5", 8, "numpy is the runtime's own"),
    ("packages: [einops]", 6, "'einops' is not 'name==version'; pin each package exactly"),
    ("packages: einops==0.8.1", 6, "packages must be a list of pinned packages"),
])
def test_a_bad_packages_entry_fails_the_build_at_its_line(tmp_path, capsys, packages_line, line, message):
    write_lesson(tmp_path, lesson_with(packages_line))
    status, err = build(tmp_path, capsys)
    assert status == 1
    assert re.search(r"lesson\.md:{}: [^\n]*{}".format(line, re.escape(message)), err), err
    assert not (tmp_path / "_site").exists()


def test_cells_run_with_exactly_the_listed_version_and_a_new_version_reruns_them(tmp_path, capsys):
    path = write_lesson(tmp_path, lesson_with("packages: [einops==0.8.0]"))
    assert build(tmp_path, capsys)[0] == 0
    assert "<pre class=\"out out-stdout\">0.8.0\n" in (tmp_path / "_site" / "01-lesson" / "index.html").read_text()
    path.write_text(path.read_text().replace("0.8.0", "0.8.1"))
    assert build(tmp_path, capsys)[0] == 0  # the cells' cached output names the wheels, so it is not reused
    page = (tmp_path / "_site" / "01-lesson" / "index.html").read_text()
    assert "<pre class=\"out out-stdout\">0.8.1\n" in page
    assert (tmp_path / "_site" / "runtime" / "packages" / "einops-0.8.1-py3-none-any.whl").is_file()
    data = json.loads(re.search(r'id="page-data">(.*?)</script>', page, re.S).group(1))
    assert [wheel["file"] for wheel in data["runtime"]["wheels"]] == ["packages/einops-0.8.1-py3-none-any.whl"]
    assert data["runtime"]["wheels"][0]["sha256"] == packages._sha256(
        tmp_path / "_site" / "runtime" / "packages" / "einops-0.8.1-py3-none-any.whl")
    assert data["runtime"]["wheels"][0]["modules"] == ["einops"]  # its first import installs it in the page


def test_a_lesson_that_does_not_list_a_package_cannot_import_it_and_is_told_so(tmp_path, capsys):
    write_lesson(tmp_path, lesson_with("packages: [einops==0.8.1]"))
    write_lesson(tmp_path, HEADER.format(packages="").replace("order: 1", "order: 2")
                 + "```{code-cell} ipython3\n:tags: [raises-exception]\nimport einops\n```\n", slug="02-without")
    assert build(tmp_path, capsys)[0] == 0
    page = (tmp_path / "_site" / "02-without" / "index.html").read_text()
    assert ("The package &#x27;einops&#x27; is not part of this lesson: its author can add it under "
            "&#x27;packages:&#x27; in the lesson&#x27;s front matter.\n</pre>") in page
    assert "Traceback" not in page


def test_no_lesson_lists_micropip_among_the_files_its_start_reads(tmp_path, capsys):
    # A page counts, states and checks the cache for the files of its runtime list: its wheels are installed
    # without micropip, whose files are read only when a cell imports it, so no page waits for them or states their
    # size; a lesson with wheels still names micropip (its site ships it), a lesson without none.
    write_lesson(tmp_path, lesson_with("packages: [einops==0.8.1]"))
    write_lesson(tmp_path, HEADER.format(packages="").replace("order: 1", "order: 2")
                 + "```{code-cell} ipython3\nprint(1)\n```\n", slug="02-without")
    assert build(tmp_path, capsys)[0] == 0

    def runtime_of(slug):
        page = (tmp_path / "_site" / slug / "index.html").read_text()
        return json.loads(re.search(r'id="page-data">(.*?)</script>', page, re.S).group(1))["runtime"]

    with_wheels, without = runtime_of("01-lesson"), runtime_of("02-without")
    assert [file["name"] for file in with_wheels["files"]] == [file["name"] for file in without["files"]]
    assert not [file for file in with_wheels["files"] if file["name"].startswith(("micropip", "packaging", "pyparsing"))]
    assert with_wheels["micropip"] and without["micropip"] == [] and without["wheels"] == []
    shipped = [path.name for path in (tmp_path / "_site" / "runtime").iterdir() if path.name.startswith("micropip")]
    assert shipped  # the site still ships it, for a cell that imports it


def test_a_second_resolution_downloads_nothing(tmp_path, monkeypatch):
    first = packages.resolve(["python-slugify==8.0.4"], tmp_path)
    assert [wheel.file_name for wheel in first] == ["text_unidecode-1.3-py2.py3-none-any.whl",
                                                    "python_slugify-8.0.4-py2.py3-none-any.whl"]

    def no_network(*args):
        raise AssertionError("pip was asked again")

    monkeypatch.setattr(packages, "_download", no_network)
    assert packages.resolve(["python-slugify==8.0.4"], tmp_path) == first


def test_a_dependency_that_needs_a_numpy_no_runtime_has_is_refused(tmp_path):
    wheel = tmp_path / "needs_new_numpy-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("needs_new_numpy-1.0.dist-info/METADATA",
                         "Metadata-Version: 2.1\nName: needs-new-numpy\nVersion: 1.0\nRequires-Dist: numpy>=2\n")
    with pytest.raises(packages.PackageError, match="needs NumPy >=2, which excludes NumPy 1.17.5 of the runtime"):
        packages._check_wheel(wheel, ["needs-new-numpy==1.0"])


def test_a_package_that_needs_numpy_gets_the_runtimes_own_and_ships_no_numpy(tmp_path, capsys):
    write_lesson(tmp_path, lesson_with("packages: [opt-einsum==3.3.0]", "```{code-cell} ipython3\nimport numpy as np\n"
                                       "import opt_einsum\nprint(opt_einsum.contract('ij,jk->ik', np.eye(2), "
                                       "np.ones((2, 2))).tolist())\n```\n"))
    assert build(tmp_path, capsys)[0] == 0
    assert [path.name for path in (tmp_path / "_site" / "runtime" / "packages").iterdir()] == [
        "opt_einsum-3.3.0-py3-none-any.whl"]
    assert "[[1.0, 1.0], [1.0, 1.0]]" in (tmp_path / "_site" / "01-lesson" / "index.html").read_text()
