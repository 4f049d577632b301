"""Lessons' PyPI packages in the browser: unpacked from the site without micropip, on both runtimes, offline too."""

import json
import re
import shutil

import pytest
from playwright.sync_api import expect

from support import ROOT, Server, build_site, edit_cell, store_the_course_offline

LESSONS = ROOT / "tests" / "fixtures" / "packages" / "lessons"
EINOPS = "01-heads-einops/index.html"
AGAIN = "02-einops-again/index.html"
SLUGIFY = "03-slugify/index.html"


@pytest.fixture(scope="module")
def packages_site(tmp_path_factory):
    """The package fixtures with the default runtime (the legacy one where the official NumPy is out of reach)."""
    return build_site(LESSONS, tmp_path_factory.mktemp("packages") / "_site")


@pytest.fixture(scope="module")
def packages_site_314(tmp_path_factory):
    """The package fixtures on the official Pyodide 314 core from npm, which ships no micropip of its own."""
    return build_site(LESSONS, tmp_path_factory.mktemp("packages314") / "_site",
                      "--pyodide-dir", str(ROOT / "node_modules" / "pyodide"))


@pytest.fixture
def context(browser):
    context = browser.new_context()
    yield context
    context.close()


def watch_requests(context):
    """Every URL the page, its workers and its service worker ask for."""
    urls = []
    context.on("request", lambda request: urls.append(request.url))
    return urls


def output_of(page, number):
    return "".join(page.locator("#cell-{} .cell-output .out".format(number)).all_text_contents())


def run_all_and_compare(page, numbers, failing=()):
    """Run every cell; each must end as the build said and print exactly what the build printed."""
    built = {number: output_of(page, number) for number in numbers}
    assert all(built.values())
    page.locator("[data-action=run-all]").click()
    for number in numbers:
        cell = page.locator("#cell-{}".format(number))
        expect(cell).to_have_attribute("data-state", "failed" if number in failing else "done", timeout=180_000)
        expect(cell.locator(".cell-output")).to_have_attribute("data-origin", "live")
        assert output_of(page, number) == built[number], "cell {}".format(number)


def edit_and_run(page, number, code):
    """Type `code` into a cell as a learner would and run it; waits for its run to end."""
    edit_cell(page, number, code)
    cell = page.locator("#cell-{}".format(number))
    cell.locator("[data-action=run]").click()
    expect(cell).to_have_attribute("data-state", re.compile("done|failed"), timeout=120_000)
    return output_of(page, number)


def micropip_files(server):
    return [path for path, _ in server.served("/runtime/") if re.search(r"/(micropip|packaging|pyparsing)", path)]


def on_origin(urls, server):
    return [url for url in urls if not (url.startswith(server.origin) or re.match(r"^(data|blob):", url))]


def test_a_lesson_with_packages_reproduces_its_build_output_and_asks_only_its_own_site(context, packages_site):
    server = Server(packages_site)
    try:
        urls = watch_requests(context)
        page = context.new_page()
        page.goto(server.url(EINOPS))
        run_all_and_compare(page, [1, 2], failing=(2,))
        assert "same as NumPy: True" in output_of(page, 1)
        assert output_of(page, 2).strip() == ("The package 'slugify' is not part of this lesson: its author can add "
                                              "it under 'packages:' in the lesson's front matter.")
        assert [path for path, _ in server.served("/runtime/packages/")] == [
            "/runtime/packages/einops-0.8.1-py3-none-any.whl"]
        page.goto(server.url(SLUGIFY))  # a package with a dependency of its own
        run_all_and_compare(page, [1, 2], failing=(2,))
        assert output_of(page, 1) == "uvaga-tse-vse-shcho-potribno golova\n"
        assert urls and on_origin(urls, server) == []
    finally:
        server.close()


def test_a_second_lesson_with_the_same_package_downloads_nothing_more(context, packages_site):
    server = Server(packages_site)
    try:
        page = context.new_page()
        page.goto(server.url(EINOPS))
        run_all_and_compare(page, [1, 2], failing=(2,))
        first = list(server.served("/runtime/"))
        page.goto(server.url(AGAIN))
        run_all_and_compare(page, [1])
        assert server.served("/runtime/") == first  # not the wheel, not micropip, not the runtime
    finally:
        server.close()


def test_packages_work_offline_after_the_course_is_stored(context, packages_site):
    server = Server(packages_site)
    page = context.new_page()
    store_the_course_offline(page, server)
    server.close()
    page.goto(server.url(SLUGIFY))
    run_all_and_compare(page, [1, 2], failing=(2,))
    page.goto(server.url(EINOPS))
    run_all_and_compare(page, [1, 2], failing=(2,))


def test_the_official_runtime_installs_the_packages_from_the_site(context, packages_site_314):
    server = Server(packages_site_314)
    try:
        urls = watch_requests(context)
        page = context.new_page()
        page.goto(server.url(SLUGIFY))
        run_all_and_compare(page, [1, 2], failing=(2,))  # bs4, which Pyodide 314 offers to fetch, gets the sentence
        assert output_of(page, 2).startswith("Пакет 'bs4' не входить до цього уроку")
        assert urls and on_origin(urls, server) == []
    finally:
        server.close()


# The 314 core from npm has no NumPy, so there the lesson is the one whose package is pure Python alone.
@pytest.mark.parametrize("runtime, lesson, module", [("packages_site", EINOPS, "einops"),
                                                     ("packages_site_314", SLUGIFY, "slugify")])
def test_a_lesson_imports_its_wheel_with_micropip_never_loaded_and_a_cell_may_still_import_micropip(
        context, request, runtime, lesson, module):
    server = Server(request.getfixturevalue(runtime))
    try:
        urls = watch_requests(context)
        page = context.new_page()
        page.goto(server.url(lesson))
        run_all_and_compare(page, [1, 2], failing=(2,))
        assert micropip_files(server) == []  # nor its dependencies: the start never asked for them
        loaded = edit_and_run(page, 2, 'import sys\nprint(sorted(name for name in ("micropip", "packaging", "pyparsing") '
                                       'if name in sys.modules), "/site-packages/{0}/" in sys.modules["{0}"].__file__)'.format(module))
        assert loaded == "[] True\n"
        assert edit_and_run(page, 2, "import micropip\nprint(micropip.__name__)") == "micropip\n"
        assert micropip_files(server)  # from the site, the first time a cell imports it
        assert on_origin(urls, server) == []
    finally:
        server.close()


def test_a_rebuild_with_another_version_keeps_the_runtime_cache_and_drops_the_old_wheel(context, tmp_path):
    lessons = tmp_path / "lessons"
    shutil.copytree(LESSONS / "02-einops-again", lessons / "02-einops-again")
    site = build_site(lessons, tmp_path / "_site")
    server = Server(site)
    try:
        page = context.new_page()
        page.goto(server.url(AGAIN))
        run_all_and_compare(page, [1])
        cache = json.loads((site / "offline.json").read_text())["runtimeCache"]
        assert "runtime/packages/einops-0.8.1-py3-none-any.whl" in cached_paths(page, cache)
        lesson = lessons / "02-einops-again" / "lesson.md"
        lesson.write_text(lesson.read_text().replace("einops==0.8.1", "einops==0.8.0"))
        build_site(lessons, site)
        assert json.loads((site / "offline.json").read_text())["runtimeCache"] == cache
        page.reload()
        run_all_and_compare(page, [1])
        # The new service worker drops the old wheel while it activates: once it is active, the wheel is gone.
        assert "runtime/packages/einops-0.8.1-py3-none-any.whl" not in cached_paths(page, cache, activated=True)
    finally:
        server.close()


def cached_paths(page, cache, activated=False):
    """The paths, relative to the site, of what the cache `cache` holds; with `activated`, once no service worker
    is installing, waiting or activating (each turn waits for the next lifecycle event, no timer)."""
    return sorted(page.evaluate("""async ([name, activated]) => {
        const registration = await navigator.serviceWorker.getRegistration();
        const busy = () => registration.installing || registration.waiting
          || (registration.active && registration.active.state !== "activated" ? registration.active : null);
        while (activated && busy()) await new Promise((resolve) => busy().addEventListener("statechange", resolve,
                                                                                          { once: true }));
        return (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname.slice(1));
    }""", [cache, activated]))
