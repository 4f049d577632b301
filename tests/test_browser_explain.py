"""In the page: a learner's shape error shows its traceback and, under it, the sentences that explain it with the
learner's own shapes, in the page's language (course.explain, run in the page's Python)."""

from playwright.sync_api import expect

from support import edit_cell


def test_a_matrix_product_whose_shapes_disagree_is_explained_in_spanish_under_its_traceback(page, course_server):
    page.goto(course_server.url("000-varias-cabezas/index.html"))
    edit_cell(page, 4, "import numpy as np\nconsultas = np.ones((4, 8))\nclaves = np.ones((4, 8))\nconsultas @ claves")
    page.locator("#cell-4 [data-action=run]").click()
    expect(page.locator("#cell-4")).to_have_attribute("data-state", "failed", timeout=120_000)
    expect(page.locator("#cell-4 .out-error")).to_contain_text("ValueError")
    explanation = page.locator("#cell-4 .out-error + .out-explain")
    expect(explanation).to_contain_text("consultas tiene forma (4, 8) y claves tiene forma (4, 8)")
    expect(explanation).to_contain_text("claves.T, de forma (8, 4), encajaría.")
    expect(explanation.locator("code")).to_have_text(["consultas @ claves", "consultas", "claves", "claves.T"])
