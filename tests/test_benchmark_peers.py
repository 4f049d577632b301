"""The peers benchmark's pages: PyScript really runs on our local Pyodide, and an off-site request fails the run."""

import sys

import pytest

from support import ROOT

sys.path.append(str(ROOT / "benchmarks"))  # after tests/, whose engines.py the benchmarks share

import loopback  # noqa: E402
import peers  # noqa: E402


@pytest.fixture(scope="module")
def bench_server(tmp_path_factory):
    """The benchmark's site on Pyodide 314's core, served as the benchmark serves it."""
    variant = peers.Variant("314 core", ROOT / "node_modules" / "pyodide", [], "print(1)")
    server = peers.BenchServer(peers.build_pages(tmp_path_factory.mktemp("peers"), variant))
    yield server
    server.close()


def page_named(name):
    """The benchmark's page of that column name."""
    return next(page for page in peers.PAGES if page.name == name)


@pytest.mark.parametrize("name", ["PyScript py", "py-editor"])
def test_pyscript_pages_print_from_the_local_pyodide_and_nothing_else(bench_server, browser, name):
    server = bench_server
    guard = loopback.Guard(server.origin)
    page = page_named(name)
    context = peers.new_context(browser, guard, page)
    before = len(server.httpd.sent)
    _, sent, _ = peers.first_output(context, server, page)
    context.close()
    served = [path for _, path, _ in server.httpd.sent[before:]]
    assert "/runtime/pyodide.asm.wasm" in served, "the page did not load the site's own Pyodide: {}".format(served)
    assert sent > 1_000_000, "the runtime's bytes were not counted before the first output"
    guard.check()


def test_a_request_off_the_server_fails_the_benchmark(bench_server, browser):
    server = bench_server
    guard = loopback.Guard(server.origin)
    context = guard.watch(browser.new_context())
    tab = context.new_page()
    tab.goto(server.url("peers/bare-worker.mjs"))  # a page without a CSP, that starts nothing
    tab.evaluate("() => fetch('https://cdn.example.invalid/pyodide/').catch(() => null)")
    context.close()
    with pytest.raises(AssertionError, match="cdn.example.invalid"):
        guard.check()
