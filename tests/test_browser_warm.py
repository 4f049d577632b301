"""A warm visit: the service worker answers the files a build pins from its cache, and asks the network for no one."""

import re

from playwright.sync_api import expect

PLAYGROUND = "01-playground/index.html"


def run_first_cell(page):
    page.locator("#cell-1 [data-action=run]").click()
    expect(page.locator("#cell-1")).to_have_attribute("data-state", re.compile("done|failed"), timeout=120_000)


def test_on_a_warm_visit_the_service_worker_answers_build_pinned_files_without_the_network(page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    run_first_cell(page)  # the first Run waits for the service worker to control the page, and goes through it
    page.reload()
    run_first_cell(page)
    served_before = len(playground_server.httpd.log)
    page.reload()
    run_first_cell(page)
    served = [path for path, _ in playground_server.httpd.log[served_before:]]
    pinned = [path for path in served if re.search(r"/assets/(worker-|course-lib|lesson-|editor)", path)]
    assert pinned == [], "asked the network for files this build pins: {}".format(pinned)
    assert not any("/runtime/" in path for path in served)
