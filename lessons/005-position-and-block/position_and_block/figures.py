"""Loss curves for a cell's output, drawn by the explorable engine's Line view (one axis, up to three series)."""

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
    """A line chart of (label, losses) pairs, every `every`-th step, from step 0."""
    steps = list(range(0, len(curves[0][1]), every))
    data = {"x": steps, "series": [(label, [float(losses[i]) for i in steps]) for label, losses in curves],
            "title": title, "x_label": x_label, "y_label": y_label}
    problem = Line("losses").check(data)
    if problem:
        raise ValueError("loss_curves(): " + problem)
    return Drawn(Line("losses", ".2f").render(data, current_language()), title)
