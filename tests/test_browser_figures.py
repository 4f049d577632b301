"""Figures as the page draws them (Chromium): values on a heatmap read at 4.5:1 or more over every shade in both
themes, and a line's legend and a bar's label are never cut off by the picture's edge. Each figure is drawn here by
the course's own code (course.display, the explorable engine) and shown in a page of the playground's build."""

import pytest

from course.display import heatmap
from course.explorables.engine import Bars, Line

PLAYGROUND = "01-playground/index.html"

# For every value written on the map: its ink's contrast with its cell's shade (the cell's colour at its opacity over
# the square behind it), as WCAG measures it.
CONTRASTS = """(svg) => {
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = (colour) => {
    const [r, g, b] = colour.map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const cells = svg.querySelectorAll(".hm-cell"), backs = svg.querySelectorAll(".hm-back");
  return Array.from(svg.querySelectorAll(".hm-value"), (value, i) => {
    const opacity = Number(cells[i].getAttribute("fill-opacity"));
    const back = rgb(getComputedStyle(backs[i]).fill), shade = rgb(getComputedStyle(cells[i]).fill);
    const under = back.map((c, k) => c * (1 - opacity) + shade[k] * opacity);
    const [high, low] = [luminance(rgb(getComputedStyle(value).fill)), luminance(under)].sort((a, b) => b - a);
    return [value.textContent, (high + 0.05) / (low + 0.05)];
  });
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_value_on_a_heatmap_reads_at_4_5_to_1_over_its_shade(browser, playground_server, scheme):
    values = [[((10 * row + col) / 99) ** 2 for col in range(10)] for row in range(10)]  # shades 0 to 1, evenly
    svg = heatmap(values, [str(n) for n in range(10)], [str(n) for n in range(10)], title="every shade").svg
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    page.goto(playground_server.url(PLAYGROUND))
    figure = page.locator("#cell-1 .cell-output")
    figure.evaluate("(output, svg) => { output.innerHTML = svg; }", svg)
    contrasts = figure.locator("svg.heatmap").evaluate(CONTRASTS)
    assert len(contrasts) == 100
    low = [(text, round(ratio, 2)) for text, ratio in contrasts if ratio < 4.5]
    assert low == [], "values below 4.5:1 in the {} theme: {}".format(scheme, low)
    context.close()


# Every text of the picture that reaches past its edges (its drawn box against the viewBox, in the page's fonts).
CUT_OFF = """(svg) => {
  const [, , width, height] = svg.getAttribute("viewBox").split(" ").map(Number);
  return Array.from(svg.querySelectorAll("text"), (text) => [text.textContent, text.getBBox()])
    .filter(([, box]) => box.x < 0 || box.y < 0 || box.x + box.width > width || box.y + box.height > height)
    .map(([text]) => text);
}"""


def test_a_lines_legend_and_a_bars_labels_are_drawn_whole(page, playground_server):
    # the labels the learners found cut: lesson 005's legend at width 32 (uk), lesson 003's query bar (es)
    line = Line("dots").render({"x": list(range(1, 28)), "series": [("рядок 4 · рядок 4 + k", [0.5] * 27)],
                                "x_label": "відстань k", "y_label": "скалярний добуток"}, "uk")
    bars = Bars("vectors").render({"axes": ["x", "y"], "vectors": [("consulta de bank", [0.4, -0.9], "query"),
                                                                     ("clave de river", [1.0, 0.2], "key")]}, "es")
    page.goto(playground_server.url(PLAYGROUND))
    output = page.locator("#cell-1 .cell-output")
    output.evaluate("(output, html) => { output.innerHTML = html; }", line + bars)
    assert output.locator("svg").count() == 2
    for picture in output.locator("svg").all():
        assert picture.evaluate(CUT_OFF) == []
