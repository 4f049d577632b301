"""Loss curves for a cell's output, drawn by the explorable engine's Line view (one axis, up to three series).

The Line view leaves about 100 units of its 480 for each legend label; a label that holds a line break ("\n")
is written on two lines, so a longer name still fits beside the plot.
"""

import re
from html import escape

from course.display import Figure
from course.explorables.engine import Line
from course.numbers import current_language


class Drawn(Figure):
    """A figure whose markup the Line view has already written (picture and table)."""

    def __init__(self, markup, title):
        super().__init__("", "", title)
        self.markup = markup

    def html(self, table_label=""):
        """The markup as drawn."""
        return self.markup


def loss_curves(curves, title, x_label, y_label, every=10):
    """A line chart of (label, losses) pairs, every `every`-th step, from step 0; a shorter run (one the learner
    stopped) draws a shorter line, over the steps it ran."""
    steps = list(range(0, max(len(losses) for _, losses in curves), every))
    data = {"x": steps, "series": [(label, [float(losses[i]) if i < len(losses) else None for i in steps])
                                   for label, losses in curves],
            "title": title, "x_label": x_label, "y_label": y_label}
    problem = Line("losses").check(data)
    if problem:
        raise ValueError("loss_curves(): " + problem)
    markup = Line("losses", ".2f").render(data, current_language())
    for label, _ in curves:
        if "\n" in label:
            markup = _two_lines(markup, label)
    return Drawn(markup, title)


def _two_lines(markup, label):
    """The markup with the legend's text `label` ("first\nsecond") written as two SVG texts, one under the other (a
    cell's figure may hold <text> but not <tspan>)."""
    first, second = (escape(part) for part in label.split("\n", 1))
    legend = re.compile(r'<text x="([\d.]+)" y="([\d.]+)"([^>]*)>{}</text>'.format(re.escape(escape(label))))
    found = legend.search(markup)
    if found is None:
        raise ValueError("loss_curves(): the legend has no label {!r}".format(label))
    x, y, rest = found.group(1), float(found.group(2)), found.group(3)
    lines = '<text x="{x}" y="{y:.1f}"{rest}>{first}</text><text x="{x}" y="{below:.1f}"{rest}>{second}</text>'.format(
        x=x, y=y, below=y + 12, rest=rest, first=first, second=second)
    return markup[:found.start()] + lines + markup[found.end():]
