"""The explorable engine: an explorable is one module that declares its controls and views from one vocabulary.

A module in a lesson's package, <package>/explorables/<name>.py, defines
explorable() -> Explorable(parts, state, glue):
`parts` are controls and views in page order, `state(**values)` computes (with the
course's NumPy code) what the views draw for one value of every control, and `glue()`
(optional) names values the prose quotes.

Controls: discrete ones (Choice buttons, Radio rows, Toggle, Stepper) switch among the
states the build precomputed for every combination, so they work before Python loads;
continuous ones (Number, Matrix of numbers) are recomputed by recompute() in the page's
Python worker. Views: Heatmap, Table, Bars (signed bars of a few vectors), Line (a few series over one axis) and Text; each
reads state[view.key] and is drawn here as whitelisted HTML/SVG, identically in the build
and in the worker. Numbers are written the way the lesson's language writes them.
"""

import importlib
import itertools
import math
import os
import sys
from html import escape

from course.display import Figure, heatmap
from course.numbers import number, set_language

MAX_STATES = 256  # every combination of the discrete controls is drawn into the page
BAR_STYLES = ("query", "key", "value", "faded")


def _origin():
    """(file, line) of the declaration in the explorable's own module, for build errors."""
    frame = sys._getframe(1)
    while frame.f_code.co_filename == __file__:
        frame = frame.f_back
    return frame.f_code.co_filename, frame.f_lineno


class Value:
    """A number and the format it is written with, such as Value(0.626, ".1%")."""

    def __init__(self, number, spec=".2f"):
        self.number = float(number)
        self.spec = spec


def show(value, spec, language):
    """Any cell value as text: a Value, a number (with spec), a vector of numbers, or text."""
    if isinstance(value, Value):
        return number(value.number, value.spec, language)
    if isinstance(value, (list, tuple)) or hasattr(value, "tolist"):
        items = value.tolist() if hasattr(value, "tolist") else value
        if isinstance(items, list):
            return "[" + "; ".join(show(item, spec, language) for item in items) + "]"
        value = items
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(float(value), spec, language)
    return str(value)


class Part:
    """What controls and views share: a name, a label, and where the module declared them."""

    discrete = False
    is_view = False

    def __init__(self, name, label):
        self.name = name
        self.label = label
        self.origin = _origin()


class Choice(Part):
    """A row of buttons, one pressed; options are values or (value, text) pairs."""

    kind = "choice"
    discrete = True

    def __init__(self, name, label, options, value=None):
        super().__init__(name, label)
        self.options = [option if isinstance(option, tuple) else (option, str(option)) for option in options]
        self.value = self.options[0][0] if value is None and self.options else value

    def index(self, value):
        """The position of a value among the options."""
        return [option for option, _ in self.options].index(value)


class Radio(Choice):
    """A row of radio buttons (arrow keys move between them)."""

    kind = "radio"


class Toggle(Choice):
    """One button that is on or off; its values are False and True."""

    kind = "toggle"

    def __init__(self, name, label, value=False):
        super().__init__(name, label, [(False, label), (True, label)], value)


class Stepper(Choice):
    """Steps walked with previous, next and reset; its values are 0, 1, … and each step has a title.

    `leap=(count, text)` adds a button, labelled `text`, that moves `count` steps forward (stopping at the last).
    """

    kind = "stepper"

    def __init__(self, name, label, steps, leap=None):
        super().__init__(name, label, list(enumerate(steps)), 0)
        self.leap = leap


class Number(Part):
    """A number the learner types; a new value is computed by Python in the page."""

    kind = "number"

    def __init__(self, name, label, value, spec=".2f", follows=None, presets=None):
        super().__init__(name, label)
        self.value, self.spec, self.follows, self.presets = value, spec, follows, presets or {}

    def default(self, values):
        """Its value in a precomputed state: the preset of the control it follows, else its own."""
        return self.presets[values[self.follows]] if self.follows else self.value

    def check_value(self, value):
        """A message if the value is not a finite number."""
        return _not_finite(value)

    def read(self, value):
        """The value as Python computes with it."""
        return float(value)


class Matrix(Number):
    """A grid of numbers (such as a projection matrix), one text box per entry, behind a disclosure."""

    kind = "matrix"

    def __init__(self, name, label, rows, cols, value, spec=".2f", follows=None, presets=None):
        super().__init__(name, label, value, spec, follows, presets)
        self.rows, self.cols = list(rows), list(cols)

    def check_value(self, value):
        """A message if the value is not a rows × cols grid of finite numbers."""
        if not isinstance(value, (list, tuple)) or len(value) != len(self.rows) or any(
                not isinstance(row, (list, tuple)) or len(row) != len(self.cols) for row in value):
            return "'{}' must be {}×{}".format(self.name, len(self.rows), len(self.cols))
        for row in value:
            for entry in row:
                if _not_finite(entry):
                    return _not_finite(entry)
        return None

    def read(self, value):
        """The grid as Python computes with it."""
        return [[float(entry) for entry in row] for row in value]


def _not_finite(value):
    """A message if the value is not a finite number, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return "{!r} is not a finite number".format(value)
    return None


class View:
    """What every view shares: the state key it draws, the format of its numbers (`spec`, where it writes any) and
    where the module declared it."""

    is_view = True

    def __init__(self, key, spec=".2f"):
        self.key, self.spec = key, spec
        self.origin = _origin()


class Heatmap(View):
    """A heatmap of {"values", "rows", "cols", "title"}; `highlight` names a control whose row is outlined."""

    kind = "heatmap"

    def __init__(self, key, highlight=None, decimals=2):
        super().__init__(key)
        self.highlight, self.decimals = highlight, decimals

    def check(self, data):
        """A message for the first thing wrong with the data, or None."""
        if not isinstance(data, dict) or not {"values", "rows", "cols"} <= set(data):
            return "a heatmap needs a dict with 'values', 'rows' and 'cols'"
        try:
            heatmap(data["values"], data["rows"], data["cols"])
        except (TypeError, ValueError) as error:
            return str(error)
        return None

    def render(self, data, language, highlight_row=None, table_label=""):
        """The SVG heatmap of course.display, with its table of values."""
        return heatmap(data["values"], data["rows"], data["cols"], title=data.get("title", ""),
                       decimals=self.decimals, highlight_row=highlight_row, language=language).html(table_label)


class Table(View):
    """A table of {"columns", "rows", "caption"}; the first cell of a row heads it; numbers use `spec`."""

    kind = "table"

    def check(self, data):
        """A message for the first thing wrong with the data, or None."""
        if not isinstance(data, dict) or not isinstance(data.get("columns"), list) or not isinstance(
                data.get("rows"), list):
            return "a table needs a dict with 'columns' and 'rows' lists"
        if any(len(row) != len(data["columns"]) for row in data["rows"]):
            return "every row of the table must have {} cells, one per column".format(len(data["columns"]))
        return None

    def render(self, data, language, highlight_row=None, table_label=""):
        """The view drawn as whitelisted HTML, numbers in the lesson's language."""
        head = "".join('<th scope="col">{}</th>'.format(escape(str(column))) if str(column) else "<td></td>"
                       for column in data["columns"])
        body = "".join("<tr><th scope=\"row\">{}</th>{}</tr>".format(
            escape(show(row[0], self.spec, language)),
            "".join("<td>{}</td>".format(escape(show(cell, self.spec, language))) for cell in row[1:]))
            for row in data["rows"])
        caption = "<caption>{}</caption>".format(escape(data["caption"])) if data.get("caption") else ""
        return '<table class="xp-table">{}<thead><tr>{}</tr></thead><tbody>{}</tbody></table>'.format(
            caption, head, body)


class Bars(View):
    """Vectors as rows of signed bars, one column per axis: {"axes", "vectors": [(label, values, style)], "title"}.

    Styles: "query", "key", "value" and "faded" (a key drawn lighter). Bars are scaled to the largest entry.
    """

    kind = "bars"
    CELL, LABEL, ROW = 110, 104, 30

    def check(self, data):
        """A message for the first thing wrong with the data, or None."""
        if not isinstance(data, dict) or not isinstance(data.get("axes"), list) or not isinstance(
                data.get("vectors"), list):
            return "bars need a dict with 'axes' and 'vectors' lists"
        for entry in data["vectors"]:
            if len(entry) != 3 or len(entry[1]) != len(data["axes"]) or entry[2] not in BAR_STYLES:
                return "each vector must be (label, values, style) with {} values and a style among {}".format(
                    len(data["axes"]), ", ".join(BAR_STYLES))
        return None

    def render(self, data, language, highlight_row=None, table_label=""):
        """The view drawn as whitelisted HTML, numbers in the lesson's language."""
        axes, vectors = data["axes"], data["vectors"]
        scale = max([abs(float(v)) for _, values, _ in vectors for v in values] + [1e-12])
        label_w = max([self.LABEL] + [10 + text_width(label, 12) for label, _, _ in vectors])  # no label cut off
        width = label_w + self.CELL * len(axes) + 4
        height = 24 + self.ROW * len(vectors)
        title = data.get("title", "")
        parts = ['<svg xmlns="http://www.w3.org/2000/svg" class="bars" viewBox="0 0 {w} {h}" width="{w}" '
                 'height="{h}" role="img" aria-label="{t}">'.format(w=width, h=height, t=escape(title or "bars"))]
        for a, axis in enumerate(axes):
            parts.append('<text class="bars-axis" x="{x}" y="14" text-anchor="middle" font-size="12" '
                         'fill="currentColor">{t}</text>'.format(x=label_w + self.CELL * a + self.CELL / 2,
                                                                 t=escape(str(axis))))
        for r, (label, values, style) in enumerate(vectors):
            y = 24 + self.ROW * r
            parts.append('<text class="bars-label" x="{x}" y="{y}" text-anchor="end" font-size="12" '
                         'fill="currentColor">{t}</text>'.format(x=label_w - 6, y=y + 18, t=escape(str(label))))
            for a, value in enumerate(values):
                middle = label_w + self.CELL * a + self.CELL / 2
                length = (self.CELL / 2 - 4) * float(value) / scale
                parts.append('<line class="bars-zero" x1="{x}" y1="{y1}" x2="{x}" y2="{y2}" stroke="currentColor" '
                             'stroke-width="1"/>'.format(x=middle, y1=y + 4, y2=y + self.ROW - 4))
                parts.append('<rect class="bar bar-{s}" x="{x:.1f}" y="{y}" width="{w:.1f}" height="{h}" '
                             'fill="#1f5fbf"><title>{l}, {a}: {v}</title></rect>'.format(
                                 s=style, x=min(middle, middle + length), y=y + 7, w=abs(length), h=self.ROW - 14,
                                 l=escape(str(label)), a=escape(str(axes[a])),
                                 v=escape(show(value, self.spec, language))))
        parts.append("</svg>")
        table = Table(self.key, self.spec)
        rows = [[label] + list(values) for label, values, _ in vectors]
        alternative = table.render({"columns": [""] + list(axes), "rows": rows}, language)
        return Figure("".join(parts), alternative, title).html(table_label)


class Line(View):
    """Lines over one x axis: {"x": [...], "series": [(label, values)], "marks": [(x, text)], "title",
    "x_label", "y_label"}.

    Each series has its own point marker (circle, square, diamond), so the lines are told apart without
    colour, and a legend at the right; a mark is a vertical rule at one x, with its text. The y axis
    runs from 0 to the largest value. A series may end early (a training stopped before the others): None
    from some x on, drawn as a shorter line and shown as a dash in the table. A table of every point is the
    alternative.
    """

    kind = "line"
    WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 480, 190, 44, 124, 24, 36
    MARKERS = ("circle", "square", "diamond")

    def check(self, data):
        """A message for the first thing wrong with the data, or None."""
        if not isinstance(data, dict) or not isinstance(data.get("x"), list) or not isinstance(
                data.get("series"), list) or not data["x"]:
            return "a line needs a dict with a non-empty 'x' list and a 'series' list"
        if not 1 <= len(data["series"]) <= len(self.MARKERS):
            return "a line draws 1 to {} series".format(len(self.MARKERS))
        for entry in data["series"]:
            if len(entry) != 2 or len(entry[1]) != len(data["x"]):
                return "each series must be (label, values) with {} values, one per x".format(len(data["x"]))
            present = [value is not None for value in entry[1]]
            if not any(present) or any(later and not earlier for earlier, later in zip(present, present[1:])):
                return "a series may end early (None from some x on) but has a value first and no gap"
        return None

    def render(self, data, language, highlight_row=None, table_label=""):
        """The SVG lines with their marks, and the table of points."""
        xs = [float(x) for x in data["x"]]
        top = max([float(v) for _, values in data["series"] for v in values if v is not None] + [1e-12])
        low, high = min(xs), max(xs)
        plot_w, plot_h = self.WIDTH - self.LEFT - self.RIGHT, self.HEIGHT - self.TOP - self.BOTTOM

        def at(x, y):
            """Pixel position of one point."""
            return (self.LEFT + plot_w * ((x - low) / (high - low) if high > low else 0.5),
                    self.TOP + plot_h * (1 - y / top))

        title = data.get("title", "")
        # The legend sits right of the plot: the picture widens to hold its longest label whole.
        right = max([self.RIGHT] + [26 + text_width(label, 11) for label, _ in data["series"]])
        parts = ['<svg xmlns="http://www.w3.org/2000/svg" class="line-chart" viewBox="0 0 {w} {h}" width="{w}" '
                 'height="{h}" role="img" aria-label="{t}">'.format(w=self.LEFT + plot_w + right, h=self.HEIGHT,
                                                                    t=escape(title or "line"))]
        parts.append(self._axes(data, language, top, low, high, plot_w, plot_h))
        for x, text in data.get("marks", []):
            px, _ = at(float(x), 0)
            parts.append('<line class="line-mark" x1="{x:.1f}" y1="{t}" x2="{x:.1f}" y2="{b}" stroke="currentColor" '
                         'stroke-width="1"/>'.format(x=px, t=self.TOP - 6, b=self.TOP + plot_h))
            parts.append(_svg_text(px + 4, self.TOP - 10, text, "start"))
        for s, (label, values) in enumerate(data["series"]):
            points = [at(x, float(y)) for x, y in zip(xs, values) if y is not None]
            parts.append('<path class="line-series line-series-{s}" d="M{d}" fill="none" stroke="currentColor" '
                         'stroke-width="1.5"/>'.format(s=s, d=" L".join("{:.1f} {:.1f}".format(*p) for p in points)))
            parts.extend(self._marker(s, px, py) for px, py in points)
            legend_x, legend_y = self.LEFT + plot_w + 14, self.TOP + 8 + 18 * s
            parts.append(self._marker(s, legend_x, legend_y))
            parts.append(_svg_text(legend_x + 8, legend_y + 4, label, "start"))
        parts.append("</svg>")
        rows = [[show(x, ".0f", language)] + ["–" if values[i] is None else values[i] for _, values in data["series"]]
                for i, x in enumerate(xs)]
        alternative = Table(self.key, self.spec).render(
            {"columns": [data.get("x_label", "")] + [label for label, _ in data["series"]], "rows": rows}, language)
        return Figure("".join(parts), alternative, title).html(table_label)

    def _axes(self, data, language, top, low, high, plot_w, plot_h):
        """The frame, the ends of both axes and their names."""
        bottom = self.TOP + plot_h
        return "".join([
            '<rect class="line-frame" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="currentColor" '
            'stroke-width="0.5"/>'.format(self.LEFT, self.TOP, plot_w, plot_h),
            _svg_text(self.LEFT - 4, self.TOP + 10, show(top, self.spec, language), "end"),
            _svg_text(self.LEFT - 4, bottom, show(0.0, self.spec, language), "end"),
            _svg_text(self.LEFT, bottom + 14, show(low, ".0f", language), "middle"),
            _svg_text(self.LEFT + plot_w, bottom + 14, show(high, ".0f", language), "middle"),
            _svg_text(self.LEFT + plot_w / 2, bottom + 30, data.get("x_label", ""), "middle"),
            _svg_text(4, self.TOP - 10, data.get("y_label", ""), "start")])

    def _marker(self, series, x, y):
        """One point of series number `series`: a circle, a square or a diamond."""
        shape = self.MARKERS[series]
        if shape == "circle":
            return '<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="currentColor"/>'.format(x, y)
        if shape == "square":
            return '<rect x="{:.1f}" y="{:.1f}" width="6" height="6" fill="none" stroke="currentColor"/>'.format(
                x - 3, y - 3)
        return '<path d="M{:.1f} {:.1f} l4 4 l-4 4 l-4 -4 z" fill="currentColor"/>'.format(x, y - 4)


def text_width(text, size):
    """A generous estimate of how wide `text` is drawn at font size `size`, in pixels, with no font to measure: wide
    enough for the page's sans-serif fonts in Latin and Cyrillic letters, so that a label given this room is never
    cut off by the picture's edge."""
    return int(round(0.64 * size * len(str(text)))) + 2


def _svg_text(x, y, text, anchor):
    """A line of SVG text at (x, y), anchored start, middle or end."""
    return '<text x="{:.1f}" y="{:.1f}" text-anchor="{}" font-size="11" fill="currentColor">{}</text>'.format(
        x, y, anchor, escape(str(text)))


class Text(View):
    """A panel of lines: each a string, or (template, {name: value}) whose numbers are formatted here.

    A first line given as ("title", text) is shown as the panel's heading.
    """

    kind = "text"

    def check(self, data):
        """A message for the first thing wrong with the data, or None."""
        if not isinstance(data, list):
            return "a text panel needs a list of lines"
        for line in data:
            if not isinstance(line, (str, tuple)) or (isinstance(line, tuple) and len(line) != 2):
                return "each line must be text or (template, {name: value})"
            if isinstance(line, tuple) and line[0] != "title":
                try:
                    line[0].format(**line[1])
                except (KeyError, IndexError, ValueError) as error:
                    return "the template {!r} does not fit its values ({})".format(line[0], error)
        return None

    def render(self, data, language, highlight_row=None, table_label=""):
        """The view drawn as whitelisted HTML, numbers in the lesson's language."""
        lines = []
        for line in data:
            if isinstance(line, tuple) and line[0] == "title":
                lines.append('<div class="xp-text-title">{}</div>'.format(escape(line[1])))
                continue
            if isinstance(line, tuple):
                template, values = line
                line = template.format(**{name: show(value, self.spec, language) for name, value in values.items()})
            lines.append('<div class="xp-line">{}</div>'.format(escape(line)))
        return '<div class="xp-text">{}</div>'.format("".join(lines))


class Explorable:
    """One explorable: its parts (controls and views, in page order), its state function and its glue."""

    def __init__(self, parts, state, glue=None):
        self.parts, self.state, self.glue = list(parts), state, glue
        self.origin = _origin()

    @property
    def controls(self):
        """Every control, in page order."""
        return [part for part in self.parts if not part.is_view]

    @property
    def discrete(self):
        """The controls whose every value is precomputed."""
        return [part for part in self.controls if part.discrete]

    @property
    def continuous(self):
        """The controls recomputed in the page's worker."""
        return [part for part in self.controls if not part.discrete]

    @property
    def views(self):
        """Every view, in page order."""
        return [part for part in self.parts if part.is_view]

    def keys(self):
        """Every combination of the discrete controls, as tuples of option positions."""
        return list(itertools.product(*[range(len(control.options)) for control in self.discrete]))

    def initial(self):
        """The option positions shown first."""
        return tuple(control.index(control.value) for control in self.discrete)

    def values(self, key, edits=None):
        """The keyword arguments of state() for a combination, with the learner's edits if any."""
        values = {control.name: control.options[index][0] for control, index in zip(self.discrete, key)}
        for control in self.continuous:
            values[control.name] = control.read((edits or {}).get(control.name, control.default(values)))
        return values

    def problems(self):
        """Everything wrong with the declaration, as ((file, line), message)."""
        found = []
        names = {}
        for part in self.parts:
            if not isinstance(part, (Part, View)):
                return [(self.origin, "{!r} is neither a control nor a view of course.explorables.engine".format(part))]
            if part.is_view:
                continue
            if part.name in names or not str(part.name).isidentifier():
                found.append((part.origin, "control names must be distinct Python names; {!r} is not".format(
                    part.name)))
            names[part.name] = part
        for control in self.discrete:
            if not control.options:
                found.append((control.origin, "'{}' has no options".format(control.name)))
            elif control.value not in [value for value, _ in control.options]:
                found.append((control.origin, "'{}' starts at {!r}, which is not one of its options".format(
                    control.name, control.value)))
        for control in self.continuous:
            found += self._preset_problems(control, names)
        for view in self.views:
            highlight = getattr(view, "highlight", None)
            if highlight is not None and not getattr(names.get(highlight), "discrete", False):
                found.append((view.origin, "highlight={!r} names no discrete control".format(highlight)))
        if not self.views:
            found.append((self.origin, "an explorable needs at least one view"))
        if not found and len(self.keys()) > MAX_STATES:
            found.append((self.origin, "{} combinations of discrete controls; at most {} are drawn into the "
                                       "page".format(len(self.keys()), MAX_STATES)))
        return found

    def _preset_problems(self, control, names):
        """What is wrong with a continuous control's default and presets."""
        if control.follows is None:
            problem = control.check_value(control.value)
            return [(control.origin, "'{}': {}".format(control.name, problem))] if problem else []
        leader = names.get(control.follows)
        if not getattr(leader, "discrete", False):
            return [(control.origin, "follows={!r} names no discrete control".format(control.follows))]
        found = []
        for value, _ in leader.options:
            if value not in control.presets:
                found.append((control.origin, "'{}' has no preset for {}={!r}".format(
                    control.name, control.follows, value)))
            elif control.check_value(control.presets[value]):
                found.append((control.origin, "'{}' preset {!r}: {}".format(
                    control.name, value, control.check_value(control.presets[value]))))
        return found

    def compute(self, key, edits=None):
        """The state of one combination; raises ValueError naming the view whose data is wrong."""
        values = self.values(key, edits)
        state = self.state(**values)
        for view in self.views:
            if not isinstance(state, dict) or view.key not in state:
                raise DeclarationError(view.origin, "state({}) has no {!r} for this {}".format(
                    _arguments(key, self), view.key, view.kind))
            problem = view.check(state[view.key])
            if problem:
                raise DeclarationError(view.origin, "state({}), {!r}: {}".format(
                    _arguments(key, self), view.key, problem))
        return state

    def draw(self, state, key, language, highlight_key=None, table_label=""):
        """The HTML of every view for one state; highlights follow highlight_key (the page moves them).

        Without a table_label, figures leave the label of their table disclosure for the page to write.
        """
        drawn = []
        for view in self.views:
            highlight = getattr(view, "highlight", None)
            where = key if highlight_key is None else highlight_key
            row = where[[control.name for control in self.discrete].index(highlight)] if highlight else None
            drawn.append(view.render(state[view.key], language, highlight_row=row, table_label=table_label))
        return drawn


class DeclarationError(ValueError):
    """A mistake in an explorable's module, with the file and line that declared the part."""

    def __init__(self, origin, message):
        super().__init__("{}:{}: {}".format(os.path.relpath(origin[0]), origin[1], message))
        self.origin = origin


def _arguments(key, explorable):
    """The discrete values of a combination, written as state()'s keyword arguments."""
    return ", ".join("{}={!r}".format(name, value) for name, value in explorable.values(key).items()
                     if name in [control.name for control in explorable.discrete])


def load(module):
    """The Explorable declared by the module '<package>.explorables.<name>' of a lesson's package."""
    parts = str(module).split(".")
    if len(parts) != 3 or parts[1] != "explorables" or not all(part.isidentifier() for part in parts):
        raise ValueError("{!r} is not the name of an explorable module, '<package>.explorables.<name>'".format(module))
    return importlib.import_module(module).explorable()


def recompute(module, values, language):
    """The views of one state after a learner's edit, drawn by the page's worker: {"views": [html, ...]}, in the
    page's `language` (which the module's own words follow too)."""
    set_language(language)
    explorable = load(module)
    key = []
    for control in explorable.discrete:
        index = values.get(control.name)
        if not isinstance(index, int) or not 0 <= index < len(control.options):
            raise ValueError("{!r} is not an option of '{}'".format(index, control.name))
        key.append(index)
    edits = {}
    for control in explorable.continuous:
        if control.name in values:
            problem = control.check_value(values[control.name])
            if problem:
                raise ValueError("'{}': {}".format(control.label, problem))
            edits[control.name] = values[control.name]
    key = tuple(key)
    state = explorable.compute(key, edits)
    return {"views": explorable.draw(state, key, language)}
