"""Fixtures shared by tests/ and lessons/<lesson>/tests/: built sites (real lessons, browser playground on both
runtimes), a server, Chromium."""

import pytest

from support import ROOT, Server, build_site, launch

PLAYGROUND = ROOT / "tests" / "fixtures" / "playground" / "lessons"


@pytest.fixture(scope="session")
def course_site(tmp_path_factory):
    """The real course, built with the default runtime choice."""
    return build_site(ROOT / "lessons", tmp_path_factory.mktemp("course") / "_site")


@pytest.fixture(scope="session")
def playground_site(tmp_path_factory):
    """The playground lesson with the default runtime (official with NumPy, or the legacy fallback)."""
    return build_site(PLAYGROUND, tmp_path_factory.mktemp("playground") / "_site")


@pytest.fixture(scope="session")
def playground_site_314(tmp_path_factory):
    """The playground lesson on the official Pyodide 314 core from npm (no NumPy)."""
    return build_site(PLAYGROUND, tmp_path_factory.mktemp("playground314") / "_site",
                      "--pyodide-dir", str(ROOT / "node_modules" / "pyodide"))


def _serve(site):
    server = Server(site)
    yield server
    server.close()


@pytest.fixture(scope="session")
def course_server(course_site):
    yield from _serve(course_site)


@pytest.fixture(scope="session")
def playground_server(playground_site):
    yield from _serve(playground_site)


@pytest.fixture(scope="session")
def playground_server_314(playground_site_314):
    yield from _serve(playground_site_314)


@pytest.fixture(scope="session")
def playwright_session():
    """The one Playwright driver of the run: its sync API allows one at a time, so every browser comes from it."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_session):
    chromium = launch(playwright_session)
    yield chromium
    chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.dialogs = []
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    yield page
    context.close()


@pytest.fixture(autouse=True)
def english_numbers():
    """Every test starts with course.numbers writing English, whatever language an earlier test's runner set."""
    from course import numbers
    numbers.set_language("en")
    yield
    numbers.set_language("en")
