"""Lesson 003's experiments in Chromium: the build's output reproduced on the browser's NumPy, and Stop."""

import re
import shutil
import textwrap

import pytest
from playwright.sync_api import expect

from support import ROOT, Server, build_site

CELLS = [
    '''\
    import json
    from odna_holova import features, induction, labels, sense, walkthrough
    model = sense.build()
    record = await sense.train(model, passes=40)
    sense.show_predictions(model, sense.SENSE_DATA)
    ''',
    '''\
    head = features.build()
    record = await features.train(head, steps=60)
    features.show_recovery(head)
    features.show_held_out(head)
    features.show_interventions(head)
    ''',
    '''\
    model = labels.build()
    record = await labels.train(model, passes=40)
    labels.show_table(model)
    ''',
    '''\
    model = induction.build()
    record = await induction.train(model, steps=20)
    print(" ".join("{:.4f}".format(loss) for loss in record["step_losses"]))
    induction.show_scores(model)
    induction.show_ablations(model)
    ''',
    '''\
    print(json.dumps(walkthrough.state(walkthrough.PRECOMPUTED + 3, 1), sort_keys=True))
    ''',
    '''\
    print(record["steps"])
    ''',
]
LESSON = "---\ntitle: Experiments\nlanguage: en\norder: 1\nsummary: The experiments, small.\n---\n\n{}"
PAGE = "01-odna-holova/index.html"  # the folder's name makes lesson 003's package (copied in) its own
FINISHED = re.compile("done|failed")


@pytest.fixture(scope="module")
def experiments_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("experiments")
    lesson = root / "lessons" / "01-odna-holova"
    lesson.mkdir(parents=True)
    cells = "".join("```{{code-cell}} ipython3\n{}```\n\n".format(textwrap.dedent(code)) for code in CELLS)
    (lesson / "lesson.md").write_text(LESSON.format(cells))
    shutil.copytree(ROOT / "lessons" / "003-odna-holova" / "odna_holova", lesson / "odna_holova")
    server = Server(build_site(root / "lessons", root / "_site"))
    yield server
    server.close()


def output(page, number):
    return page.locator("#cell-{} .cell-output".format(number))


def test_every_experiment_prints_in_the_browser_what_the_build_printed(page, experiments_server):
    page.goto(experiments_server.url(PAGE))
    built = [output(page, number).inner_text() for number in range(1, len(CELLS))]
    assert "prediction: 1" in built[0] and '"stage": "gradients"' in built[4]
    for number, expected in enumerate(built, start=1):
        page.locator("#cell-{} [data-action=run]".format(number)).click()
        expect(page.locator("#cell-{}".format(number))).to_have_attribute("data-state", FINISHED, timeout=180_000)
        expect(page.locator("#cell-{}".format(number))).to_have_attribute("data-state", "done")
        assert output(page, number).inner_text() == expected, "cell {}".format(number)


def test_stop_ends_the_induction_training_between_two_steps_and_keeps_its_record(page, experiments_server):
    page.goto(experiments_server.url(PAGE))
    page.locator("#cell-1 [data-action=run]").click()
    expect(page.locator("#cell-1")).to_have_attribute("data-state", "done", timeout=180_000)
    page.locator("#cell-4 .cell-code").click()
    page.locator("#cell-4 .cm-content").press("Control+a")
    page.keyboard.insert_text("model = induction.build()\nrecord = await induction.train(model, steps=100000)\n")
    page.keyboard.press("Shift+Enter")
    expect(page.locator("#cell-4 .progress-text")).to_contain_text("Epoch 1/1563", timeout=120_000)
    expect(page.locator("#cell-4")).to_have_attribute("data-state", "running")
    page.locator("[data-action=stop]").click()
    expect(page.locator("#cell-4")).to_have_attribute("data-state", "stopped", timeout=10_000)
    expect(page.locator("#cell-4 .out-stopped")).to_have_text("Stopped between two steps; Python kept every variable.")
    expect(page.locator("#cell-4 .progress-text")).to_contain_text("stopped: the model keeps what it learned so far")
    page.locator("#cell-6 .cell-code").click()
    page.locator("#cell-6 .cm-content").press("Control+a")
    page.keyboard.insert_text('print(record["stopped"], 0 < record["steps"] < 100000, '
                              'len(record["step_losses"]) == record["steps"])')
    page.keyboard.press("Shift+Enter")
    expect(output(page, 6)).to_have_text("True True True")
