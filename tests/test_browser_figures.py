"""Values written on a heatmap's cells read at 4.5:1 or more over every shade, in the light and the dark theme
(Chromium; one map of every shade, drawn by course.display, shown in a page of the playground's build)."""

import pytest

from course.display import heatmap

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
