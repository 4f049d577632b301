"""Training in the browser: progress streams into the cell, Stop ends it between steps, the maps are drawn."""

import re

from playwright.sync_api import expect

PLAYGROUND = "01-playground/index.html"
FINISHED = re.compile("done|failed")


def run_cell(page, number, timeout=180_000):
    page.locator("#cell-{} [data-action=run]".format(number)).click()
    expect(page.locator("#cell-{}".format(number))).to_have_attribute("data-state", FINISHED, timeout=timeout)


def test_a_training_run_streams_progress_and_reproduces_the_build(page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    built = page.locator("#cell-7 .progress-text").text_content()
    assert built.startswith("Epoch 2/2 · step 8/8 · loss ")
    run_cell(page, 7)
    expect(page.locator("#cell-7")).to_have_attribute("data-state", "done")
    expect(page.locator("#cell-7 .progress-text")).to_have_text(built)
    expect(page.locator("#cell-7 progress")).to_have_attribute("value", "8")


def test_stop_ends_training_between_steps_and_keeps_the_namespace(page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    run_cell(page, 1)
    page.locator("#cell-7 .cell-code").click()
    page.locator("#cell-7 .cm-content").press("Control+a")
    page.keyboard.insert_text(
        "import numpy as np\n"
        "from course.nn.models import SequenceTransformer\n"
        "from course.nn.train import digit_sequences, train_sequences\n"
        "X = digit_sequences(4096, seed=1)\n"
        "model = SequenceTransformer(width=16, heads=2, blocks=2, hidden=32, seed=0)\n"
        "history = await train_sequences(model, X, np.sort(X, axis=1), X[:64], np.sort(X[:64], axis=1), epochs=50)\n")
    page.keyboard.press("Shift+Enter")
    progress = page.locator("#cell-7 .progress-text")
    expect(progress).to_contain_text("Epoch 1/50", timeout=120_000)  # streamed while the cell runs
    expect(page.locator("#cell-7")).to_have_attribute("data-state", "running")
    page.locator("[data-action=stop]").click()
    expect(page.locator("#cell-7")).to_have_attribute("data-state", "stopped", timeout=10_000)
    expect(progress).to_contain_text("stopped: the model keeps what it learned so far")
    expect(page.locator("#cell-7 .out-stopped")).to_have_text("Stopped between two steps; Python kept every variable.")
    expect(page.locator("#cell-7 .out-restart")).to_have_count(0)  # the worker was not restarted
    page.locator("#cell-5 .cell-code").click()
    page.locator("#cell-5 .cm-content").press("Control+a")
    page.keyboard.insert_text("print(x, history[-1]['stopped'], history[-1]['epoch'] < 50)")
    page.keyboard.press("Shift+Enter")
    expect(page.locator("#cell-5 .cell-output")).to_have_text("41 True True")


def test_the_trained_models_maps_appear_as_a_grid_of_blocks_by_heads(page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    run_cell(page, 7)
    run_cell(page, 8)
    grid = page.locator("#cell-8 .figure-grid")
    expect(grid.locator(".figure-row")).to_have_count(2)
    expect(grid.locator("svg.heatmap")).to_have_count(4)
    expect(grid.locator("svg.heatmap").first).to_have_attribute("aria-label", "Block 1, head 1")
    assert grid.locator(".figure-row").nth(1).locator("svg").nth(1).get_attribute("aria-label") == "Block 2, head 2"


def edit(page, number, code):
    page.locator("#cell-{} .cell-code".format(number)).click()
    page.locator("#cell-{} .cm-content".format(number)).press("Control+a")
    page.keyboard.insert_text(code)


def test_numpy_progress_values_train_and_an_unreadable_one_fails_its_cell_without_restarting_python(
        page, playground_server):
    page.goto(playground_server.url(PLAYGROUND))
    run_cell(page, 1)
    edit(page, 7, "import numpy as np\nfrom course.nn.train import train_steps\n"
                  "r = await train_steps(lambda i: np.float32('nan'), np.int64(40))\nprint(r['steps'])\n")
    page.keyboard.press("Shift+Enter")
    expect(page.locator("#cell-7")).to_have_attribute("data-state", "done", timeout=120_000)
    expect(page.locator("#cell-7 .out-stdout")).to_have_text("40\n")
    expect(page.locator("#cell-7 .progress-text")).to_contain_text("40/40")
    edit(page, 5, "from course import runner\nrunner.progress({'loss': object()})\n")
    page.keyboard.press("Shift+Enter")
    expect(page.locator("#cell-5")).to_have_attribute("data-state", "failed", timeout=60_000)
    expect(page.locator("#cell-5 .out-error")).to_contain_text("line 2")
    expect(page.locator("#cell-5 .out-error")).to_contain_text("TypeError: a progress value cannot be shown")
    expect(page.locator(".out-restart")).to_have_count(0)
    edit(page, 5, "print(x)")
    page.keyboard.press("Shift+Enter")
    expect(page.locator("#cell-5 .cell-output")).to_have_text("41\n")  # the namespace survived: no restart
