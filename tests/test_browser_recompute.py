"""An explorable's recomputation is a job of the page's scheduler: queued like cells, ended by Stop."""

import json
import re

import pytest
from playwright.sync_api import expect

from support import ROOT, serve_built_site

FIXTURE = ROOT / "tests" / "fixtures" / "recompute" / "lessons"
STRINGS = json.loads((ROOT / "site" / "i18n" / "en.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def loop_server(tmp_path_factory):
    yield from serve_built_site(FIXTURE, tmp_path_factory.mktemp("recompute") / "_site")


def test_a_recomputation_that_never_ends_is_stopped_and_the_cell_queued_behind_it_says_it_did_not_run(page, loop_server):
    page.goto(loop_server.url("01-loop/index.html"))
    figure = page.locator("#explorable-1")
    expect(figure).to_have_attribute("data-ready", "true")
    box = figure.locator("input").first
    box.fill("2")
    box.press("Enter")
    expect(figure).to_have_attribute("data-shown", "live", timeout=120_000)  # Python is up and answers
    box.fill("13")
    box.press("Enter")
    expect(figure.locator(".xp-status")).to_have_text(STRINGS["explorable_computing"])
    expect(page.locator(".runtime-status")).to_have_text(STRINGS["runtime_running_explorable"].format(queue=""))  # nothing waits yet
    page.locator("#cell-1 [data-action=run]").click()
    expect(page.locator("#cell-1")).to_have_attribute("data-state", "queued")
    expect(page.locator("#cell-1 .cell-status")).to_have_text(STRINGS["queued"])
    stop = page.locator("[data-action=stop]")
    expect(stop).to_be_enabled()
    stop.click()
    stopped = re.compile("|".join(re.escape(STRINGS[key]) for key in ("stopped_interrupted", "stopped_between_steps")))
    expect(figure.locator(".xp-status")).to_have_text(stopped, timeout=30_000)
    expect(page.locator("#cell-1 .out-stopped")).to_have_text(STRINGS["stopped_queued"])  # dropped, and says so
    assert page.locator("#cell-1").get_attribute("data-state") == ""
    page.locator("#cell-1 [data-action=run]").click()
    expect(page.locator("#cell-1")).to_have_attribute("data-state", "done", timeout=60_000)
    expect(page.locator("#cell-1 .cell-output")).to_contain_text("after the figure")


def test_a_count_typed_past_the_stepper_hides_the_steppers_title_until_it_steps_again(page, loop_server):
    page.goto(loop_server.url("01-loop/index.html"))
    figure = page.locator("#explorable-2")
    expect(figure).to_have_attribute("data-ready", "true")
    title = figure.locator(".xp-step:not([hidden])")
    figure.locator("[data-step=next]").click()
    figure.locator("[data-step=next]").click()
    expect(title).to_have_text(STRINGS["explorable_step_counted"].format(title="updates done: 2", last=4))
    box = figure.get_by_label("Or type a count")
    expect(box).to_have_value("2")
    box.fill("60")
    box.press("Enter")
    expect(title).to_have_count(0)  # the stepper no longer says what the figure shows: 60, not 2
    figure.locator("[data-step=next]").click()
    expect(title).to_have_text(STRINGS["explorable_step_counted"].format(title="updates done: 3", last=4))
    expect(box).to_have_value("3")
