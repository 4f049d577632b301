"""A learner's checked function comes back after a reload: the page's next Python defines it again."""

from playwright.sync_api import expect

from support import ROOT, edit_cell, submit_exercise

LESSON = "000-varias-cabezas/index.html"
SOLUTION = ROOT / "lessons" / "000-varias-cabezas" / "exercises" / "multi_head" / "solution.py"


def test_a_function_a_check_joined_is_defined_again_after_a_reload_before_the_first_cell_runs(page, course_server):
    page.goto(course_server.url(LESSON))
    # The learner's code, marked with a name no cell of the lesson defines.
    code = SOLUTION.read_text() + "\n\ndef learners_own():\n    return 41\n"
    exercise = submit_exercise(page, "multi_head", code)
    expect(exercise).to_have_attribute("data-state", "done")
    page.reload()
    # Cell 4 is the first cell whose code the page shows (cell 1's is folded, cell 2 is removed).
    edit_cell(page, 4, "print(learners_own() + 1)")
    page.locator("#cell-4 [data-action=run]").click()
    expect(page.locator("#cell-4")).to_have_attribute("data-state", "done", timeout=120_000)
    expect(page.locator("#cell-4 .cell-output")).to_contain_text("42")
    # Quietly: nothing says Python was lost or cells were run again.
    expect(page.locator("#cell-4 .out-note")).to_have_count(0)
