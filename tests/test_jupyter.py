"""A lesson opened in Jupyter through jupytext, run there and saved, still builds with the same cells."""

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from support import ROOT, build_site

jupytext = pytest.importorskip("jupytext")
nbclient = pytest.importorskip("nbclient")
from jupytext.config import load_jupytext_config  # noqa: E402

from coursebuild import packages  # noqa: E402
from coursebuild.lesson import REQUIRED_META, read_lesson  # noqa: E402

LESSONS = sorted(path.parent.name for path in (ROOT / "lessons").glob("*/lesson.md"))


def open_in_jupyter(path):
    """The notebook Jupyter makes of a lesson, with the configuration jupytext finds for its folder."""
    config = load_jupytext_config(str(path.parent))
    return jupytext.read(str(path), config=config), config


def lesson_packages(folder):
    """The folder holding the lesson's `packages:` installed (as the build installs them for its cells), or None."""
    if not (Path(folder) / "lesson.md").is_file():
        return None  # a notebook of the tests' own, not a lesson
    lesson, _ = read_lesson(Path(folder) / "lesson.md")
    entries = lesson.meta.get("packages") or []
    cache = Path(os.environ.get("COURSE_CACHE", str(ROOT / ".cache")))
    return packages.install_target(packages.resolve(entries, cache), cache) if entries else None


def execute(notebook, folder, monkeypatch):
    """Run every cell in a python3 kernel (ipykernel), as Jupyter's Run all does, with the course on the path."""
    installed = lesson_packages(folder)  # the lesson's packages:, as the authoring guide has a kernel install them
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT / "py")] + ([str(installed)] if installed else [])))
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    client = nbclient.NotebookClient(notebook, kernel_name="python3", timeout=300,
                                     resources={"metadata": {"path": str(folder)}})
    return client.execute()


def page_cells(site, slug):
    html = (site / slug / "index.html").read_text(encoding="utf-8")
    return json.loads(re.search(r'id="page-data">(.*?)</script>', html, re.S).group(1))["cells"]


def assert_figures_drawn_as_html(notebook):
    """Every cell that calls show() has the figure among its outputs as HTML, and no table printed as text."""
    for cell in notebook.cells:
        if cell.cell_type != "code" or "show(" not in cell.source:
            continue
        drawn = [output["data"].get("text/html", "") for output in cell.outputs
                 if output["output_type"] == "display_data"]
        assert drawn and all("<svg" in markup for markup in drawn), cell.source
        assert not any("<table" in output.get("text", "") for output in cell.outputs), cell.source


def cells(lesson):
    return [(cell.code, cell.raises, cell.tags, cell.checks) for cell in lesson.cells]


@pytest.mark.parametrize("slug", LESSONS)
def test_a_lesson_run_and_saved_in_jupyter_keeps_its_front_matter_and_builds_with_the_same_cells(
        slug, tmp_path, monkeypatch):
    source = ROOT / "lessons" / slug
    notebook, config = open_in_jupyter(source / "lesson.md")
    assert notebook.metadata["kernelspec"]["name"] == "python3"
    executed = execute(notebook, source, monkeypatch)
    assert_figures_drawn_as_html(executed)
    copy = tmp_path / "lessons" / slug
    shutil.copytree(source, copy)
    jupytext.write(executed, str(copy / "lesson.md"), fmt="md:myst", config=config)

    original, errors = read_lesson(source / "lesson.md")
    assert errors == []
    saved, errors = read_lesson(copy / "lesson.md")
    assert errors == [], [str(error) for error in errors]
    assert {key: saved.meta[key] for key in REQUIRED_META} == {key: original.meta[key] for key in REQUIRED_META}
    assert cells(saved) == cells(original)
    site = build_site(tmp_path / "lessons", tmp_path / "_site")
    assert [cell["code"] for cell in page_cells(site, slug)] == [cell[0] for cell in cells(original)]


def test_display_tags_and_checks_live_in_the_notebooks_cell_metadata_and_survive_a_save(tmp_path, monkeypatch):
    source = ROOT / "tests" / "fixtures" / "cells" / "lessons" / "01-celdas"
    notebook, config = open_in_jupyter(source / "lesson.md")
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert [cell.metadata.get("tags", []) for cell in code_cells] == [
        [], ["remove-cell"], ["remove-input"], ["remove-output"], ["hide-input"], ["hide-output"], [], [], []]
    assert code_cells[7].metadata["checks"] == ["q-doble", "q-signo"]
    executed = execute(notebook, source, monkeypatch)
    removed = [cell for cell in executed.cells if cell.cell_type == "code"][1]
    assert [output["text"] for output in removed.outputs] == ["oculta 20\n"]  # a removed cell runs in Jupyter too
    copy = tmp_path / "lessons" / source.name
    shutil.copytree(source, copy)
    jupytext.write(executed, str(copy / "lesson.md"), fmt="md:myst", config=config)
    original, _ = read_lesson(source / "lesson.md")
    saved, errors = read_lesson(copy / "lesson.md")
    assert errors == [] and cells(saved) == cells(original)
    build_site(tmp_path / "lessons", tmp_path / "_site")


def test_show_draws_a_figure_in_jupyter_as_html_not_as_its_source(tmp_path, monkeypatch):
    notebook = jupytext.reads("\n".join([
        "```{code-cell} ipython3",
        "from course.display import heatmap, show",
        "show(heatmap([[0.25, 0.75], [1.0, 0.0]], ['a', 'b'], ['c', 'd'], title='pesos'))",
        "```",
    ]), fmt="md:myst")
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    outputs = execute(notebook, tmp_path, monkeypatch).cells[0].outputs
    assert [output["output_type"] for output in outputs] == ["display_data"]
    drawn = outputs[0]["data"]["text/html"]
    assert drawn.startswith('<figure class="course-figure">') and "<svg" in drawn and ">0.75<" in drawn
    assert not any(output.get("name") == "stdout" for output in outputs)


def test_saving_a_lesson_from_jupyter_keeps_its_packages(tmp_path):
    source = ROOT / "tests" / "fixtures" / "packages" / "lessons" / "02-einops-again" / "lesson.md"
    notebook, config = open_in_jupyter(source)
    saved = tmp_path / "lesson.md"
    jupytext.write(notebook, str(saved), fmt="md:myst", config=config)
    lesson, errors = read_lesson(saved)
    assert errors == [], [str(error) for error in errors]
    assert lesson.packages == ["einops==0.8.1"] == read_lesson(source)[0].packages
