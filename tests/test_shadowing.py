"""A lesson package or a wheel that would hide what cells import (NumPy, the course library, the standard library) or
that is named after a keyword is refused at its file (and line), and the previous site stays as it was."""

import re

import pytest
from test_build import GOOD, HEADER, build, write_lesson

from coursebuild import packages

PRINT_ZEROS = "```{code-cell} ipython3\nimport numpy as np\nprint(np.zeros(2))\n```\n"
FOLDERS = {  # a folder name -> what its package would hide
    "02-numpy": "would shadow NumPy: cells that import 'numpy' would get it instead",
    "951-course": "would shadow the course library (py/course/)",
    "02-coursebuild": "would shadow the course's build (py/coursebuild/)",
    "02-class": "is a Python keyword, so no cell could import it ('import class' is a syntax error)",
    "02-enum": "would shadow the standard library's module 'enum'",
    "02-js": "would shadow Pyodide's module 'js'",
}
PACKAGES = {  # a packages: line -> (the line of the error, its message)
    "packages: [enum34==1.1.10]": (6, "enum34==1.1.10 installs a module 'enum', which would shadow the standard "
                                      "library's module 'enum'"),
    "packages:\n  - einops==0.8.1\n  - Einops==0.8.0": (8, "einops is listed twice in packages: ('Einops==0.8.0' "
                                                          "here, 'einops==0.8.1' at line 7); keep one pin"),
    "packages: [einops==0.8.1, einops==0.8.1]": (6, "einops is listed twice in packages:"),
}


def built_good_site(tmp_path, capsys):
    """A site built from one good lesson, and its page's text."""
    write_lesson(tmp_path, GOOD)
    assert build(tmp_path, capsys)[0] == 0
    return (tmp_path / "_site" / "01-lesson" / "index.html").read_text()


@pytest.mark.parametrize("slug", sorted(FOLDERS))
def test_a_lesson_folder_whose_package_would_shadow_a_module_is_refused_and_the_site_kept(tmp_path, capsys, slug):
    before = built_good_site(tmp_path, capsys)
    write_lesson(tmp_path, HEADER.replace("order: 1", "order: 2") + PRINT_ZEROS, slug=slug)
    status, err = build(tmp_path, capsys)
    assert status == 1 and "Traceback" not in err
    package = slug.split("-", 1)[1]
    assert "lessons/{}/lesson.md: the lesson folder '{}' gives the lesson's package the name '{}', which {}".format(
        slug, slug, package, FOLDERS[slug]) in err, err
    assert "rename the folder (for example '{}-lesson')".format(slug) in err
    assert (tmp_path / "_site" / "01-lesson" / "index.html").read_text() == before
    assert not (tmp_path / "_site" / slug).exists()


@pytest.mark.parametrize("packages_line", sorted(PACKAGES))
def test_a_package_that_would_shadow_a_module_or_is_listed_twice_is_refused_at_its_line(tmp_path, capsys,
                                                                                        packages_line):
    line, message = PACKAGES[packages_line]
    before = built_good_site(tmp_path, capsys)
    write_lesson(tmp_path, HEADER.replace("order: 1", "order: 2").replace("---\n\n", packages_line + "\n---\n\n")
                 + PRINT_ZEROS, slug="02-with-packages")
    status, err = build(tmp_path, capsys)
    assert status == 1 and "Traceback" not in err
    assert re.search(r"lessons/02-with-packages/lesson\.md:{}: [^\n]*{}".format(line, re.escape(message)), err), err
    assert "ResolutionImpossible" not in err
    assert (tmp_path / "_site" / "01-lesson" / "index.html").read_text() == before
    assert not (tmp_path / "_site" / "02-with-packages").exists()


def test_a_wheel_with_a_module_named_like_the_lesson_s_own_package_is_refused_at_its_line(tmp_path, capsys):
    before = built_good_site(tmp_path, capsys)
    write_lesson(tmp_path, HEADER.replace("order: 1", "order: 2").replace("---\n\n", "packages: [einops==0.8.1]\n---\n\n")
                 + PRINT_ZEROS, slug="02-einops")
    (tmp_path / "lessons" / "02-einops" / "einops").mkdir()
    (tmp_path / "lessons" / "02-einops" / "einops" / "__init__.py").write_text('"""The lesson\'s own code."""\n')
    status, err = build(tmp_path, capsys)
    assert status == 1 and "Traceback" not in err
    assert re.search(r"lessons/02-einops/lesson\.md:6: einops==0\.8\.1 installs a module 'einops', the name of this "
                     r"lesson's own package", err), err
    assert (tmp_path / "_site" / "01-lesson" / "index.html").read_text() == before
    assert not (tmp_path / "_site" / "02-einops").exists()


def test_a_lesson_with_no_code_of_its_own_may_install_a_wheel_named_like_its_folder(tmp_path, capsys):
    write_lesson(tmp_path, GOOD)
    write_lesson(tmp_path, HEADER.replace("order: 1", "order: 2").replace("---\n\n", "packages: [einops==0.8.1]\n---\n\n")
                 + PRINT_ZEROS, slug="02-einops")
    status, err = build(tmp_path, capsys)
    assert status == 0, err
    assert (tmp_path / "_site" / "02-einops" / "index.html").exists()


@pytest.mark.parametrize("module", ["random.py", "numpy/__init__.py"])
def test_a_module_beside_lesson_md_that_would_shadow_one_is_refused_and_the_site_kept(tmp_path, capsys, module):
    before = built_good_site(tmp_path, capsys)
    folder = write_lesson(tmp_path, HEADER.replace("order: 1", "order: 2") + PRINT_ZEROS, slug="02-other").parent
    (folder / module).parent.mkdir(parents=True, exist_ok=True)
    (folder / module).write_text("", encoding="utf-8")
    status, err = build(tmp_path, capsys)
    assert status == 1 and "Traceback" not in err
    name = module.split("/")[0]
    assert "lessons/02-other/{}: this module, '{}', is on the path of the lesson's cells".format(
        name, name.replace(".py", "")) in err, err
    assert "rename it, or move it into the lesson's package" in err
    assert (tmp_path / "_site" / "01-lesson" / "index.html").read_text() == before


def test_a_wheel_s_top_level_modules_are_what_its_archive_puts_beside_the_standard_library(tmp_path):
    import zipfile
    wheel = tmp_path / "several-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name in ("pkg/__init__.py", "pkg/sub/mod.py", "single.py", "several-1.0.dist-info/METADATA",
                     "several-1.0.dist-info/top_level.txt", "several-1.0.data/purelib/extra/__init__.py",
                     "several-1.0.data/scripts/tool", "__pycache__/single.cpython-311.pyc", "README.txt"):
            archive.writestr(name, "")
    assert packages.top_level_modules(wheel) == ["extra", "pkg", "single"]


@pytest.mark.parametrize("module, hides", [("numpy", "NumPy"), ("course", "course library"), ("enum", "standard"),
                                           ("_thread", "standard"), ("sys", "standard"), ("def", "keyword")])
def test_what_a_module_name_would_hide_is_named(module, hides):
    assert hides in packages.shadowed(module)


@pytest.mark.parametrize("module", ["einops", "odna_holova", "softmax_basics", "match"])
def test_names_that_hide_nothing_pass(module):
    assert packages.shadowed(module) is None
