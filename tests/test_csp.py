"""The content security policies: the page's (no nonce, no inline style, no WebAssembly) and the worker's.

A dedicated worker ignores the page's <meta> policy; the service worker gives the worker's scripts a policy
header of their own, so learner code cannot send a request to another origin from a page it controls.
"""

import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import expect

PLAYGROUND = "01-playground/index.html"

# Learner code trying the three ways out of the worker that Pyodide offers.
REACH_OUT = '''URL = "{url}"
from js import XMLHttpRequest, fetch
try:
    from pyodide.http import open_url
except ImportError:
    from pyodide import open_url
try:
    response = await fetch(URL + "fetch")
    print("fetch reached", response.status)
except Exception:
    print("fetch refused")
try:
    request = XMLHttpRequest.new()
    request.open("GET", URL + "xhr", False)
    request.send()
    print("xhr reached", request.status)
except Exception:
    print("xhr refused")
try:
    print("open_url reached", open_url(URL + "open_url").read())
except Exception:
    print("open_url refused")
'''

WATCH_VIOLATIONS = """
window.violations = [];
document.addEventListener("securitypolicyviolation", (event) => window.violations.push(
  [event.violatedDirective, event.blockedURI, event.sourceFile, event.lineNumber, event.sample]));
"""


class OtherOrigin:
    """A server on 127.0.0.2 (another origin) that would answer anyone, recording every path asked for."""

    def __init__(self):
        self.paths = []
        paths = self.paths

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                paths.append(self.path)
                body = b"ok"
                self.send_response(200)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Cross-Origin-Resource-Policy", "cross-origin")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.2", 0), Handler)
        self.url = "http://127.0.0.2:{}/".format(self.httpd.server_address[1])
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def other_origin():
    server = OtherOrigin()
    yield server
    server.close()


def pages(site):
    return sorted(Path(site).rglob("*.html"))


def policy_of(html):
    return re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)


def run_edited_cell(page, code):
    page.locator("#cell-1 .cell-code").click()
    editor = page.locator("#cell-1 .cm-content")
    expect(editor).to_be_visible()
    editor.press("Control+a")
    page.keyboard.insert_text(code)
    page.keyboard.press("Shift+Enter")
    expect(page.locator("#cell-1")).to_have_attribute("data-state", re.compile("done|failed"), timeout=120_000)
    return "".join(page.locator("#cell-1 .cell-output .out").all_text_contents())


@pytest.mark.parametrize("which", ["course", "playground"])
def test_no_page_allows_inline_style_a_nonce_or_webassembly(request, which):
    site = request.getfixturevalue(which + "_site")
    for path in pages(site):
        html = path.read_text(encoding="utf-8")
        policy = policy_of(html)
        assert "style-src 'self';" in policy and "script-src 'self';" in policy, path
        assert "nonce-" not in policy and "unsafe" not in policy, path
        assert not re.search(r"<style|\sstyle=", html), path
        assert "styleNonce" not in html, path


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_editor_opens_styled_and_runs_with_no_policy_violation(browser, playground_server, scheme):
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    page.add_init_script(WATCH_VIOLATIONS)
    page.goto(playground_server.url(PLAYGROUND))
    assert run_edited_cell(page, "print('styled')") == "styled\n"
    # CodeMirror's own rules reached the page (without them its editor is a plain block) ...
    assert page.locator("#cell-1 .cm-editor").evaluate("(node) => getComputedStyle(node).display") == "flex"
    # ... and the page's own rules still win over them: the gutter has the code's background, not CodeMirror's.
    backgrounds = page.locator("#cell-1 .cm-editor, #cell-1 .cm-gutters").evaluate_all(
        "(nodes) => nodes.map((node) => getComputedStyle(node).backgroundColor)")
    assert len(set(backgrounds)) == 1
    assert page.evaluate("window.violations") == []
    context.close()


@pytest.mark.parametrize("visit", ["first", "later", "hard reload"])
@pytest.mark.parametrize("which", ["playground_server", "playground_server_314"])
def test_learner_code_on_a_page_the_service_worker_controls_cannot_reach_another_origin(
        request, browser, which, visit, other_origin):
    server = request.getfixturevalue(which)
    context = browser.new_context()
    page = context.new_page()
    page.goto(server.url(PLAYGROUND))
    if visit != "first":
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()
    if visit == "hard reload":
        # Shift+Reload: the page bypasses the service worker, yet Chromium still fetches the worker's script
        # through it (the worker's URL is in its scope).
        with page.expect_navigation():
            context.new_cdp_session(page).send("Page.reload", {"ignoreCache": True})
        assert not page.evaluate("Boolean(navigator.serviceWorker.controller)")
    # On the first visit the page itself did not come through the service worker (so it is not isolated),
    # but Run waits for the service worker to take control before it starts the worker.
    assert page.evaluate("crossOriginIsolated") == (visit == "later")
    output = run_edited_cell(page, REACH_OUT.format(url=other_origin.url))
    assert output == "fetch refused\nxhr refused\nopen_url refused\n"
    assert other_origin.paths == []
    context.close()


def test_without_the_service_worker_learner_code_reaches_another_origin(browser, playground_server, other_origin):
    # What the README says of a page the service worker does not control: the worker then has no policy.
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.goto(playground_server.url(PLAYGROUND))
    output = run_edited_cell(page, REACH_OUT.format(url=other_origin.url))
    assert output == "fetch reached 200\nxhr reached 200\nopen_url reached ok\n"
    assert sorted(other_origin.paths) == ["/fetch", "/open_url", "/xhr"]
    context.close()
