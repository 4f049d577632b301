"""Pictures for cells and explorables: SVG heatmaps, shown in a cell's output with show().

    from course.display import heatmap, show
    show(heatmap(A, rows=palabras, cols=palabras, title="cabeza 1"))

heatmap() returns a Figure: an SVG (values on hover through <title>) plus an HTML
table with the same numbers, for screen readers. Colours come from the page's
stylesheet, so they follow the light and dark themes and print; the SVG carries
plain fallbacks for use outside the page. Everything written is escaped text.
"""

import sys
from html import escape

from course import runner
from course.numbers import number

CELL = 34
LABEL_WIDTH = 78
HEADER_HEIGHT = 64
FALLBACK_FILL = "#1f5fbf"
# Past this many columns the numbers no longer fit their cells legibly (a 16 × 16 map): the map keeps its shades
# and each cell's tooltip, and its table keeps the numbers.
NUMBERS_UP_TO_COLUMNS = 10
# A cell's shade past which white ink no longer reaches 4.5:1 in the dark theme (black does from 0.613 on), and past
# which black no longer does in the light one (white does from 0.851 on): see _ink_band.
DEEP, DEEPEST = 0.62, 0.86


class Figure:
    """An SVG picture and its accessible table."""

    def __init__(self, svg, table, title=""):
        self.svg = svg
        self.table = table
        self.title = title

    def html(self, table_label=""):
        """The figure as the page shows it: the picture, then the table behind a disclosure.

        Without a table_label the disclosure's label is left empty: the page writes it in the lesson's language.
        """
        caption = '<figcaption class="figure-title">{}</figcaption>'.format(escape(self.title)) if self.title else ""
        return ('<figure class="course-figure">{}{}<details class="figure-table"><summary class="figure-table-label">'
                "{}</summary>{}</details></figure>").format(caption, self.svg, escape(table_label), self.table)

    def _repr_html_(self):
        """What Jupyter draws for a figure: its page markup."""
        return self.html()

    def __repr__(self):
        return "<Figure: use show() to draw it>"


def heatmap(matrix, rows, cols, title="", decimals=2, highlight_row=None, element_id=None, language=None):
    """A heatmap of a 2-D array of values in [0, 1], one labelled row and column per entry."""
    values = [[float(value) for value in row] for row in matrix]  # works for NumPy arrays and lists
    if len(values) != len(rows) or any(len(row) != len(cols) for row in values):
        raise ValueError("heatmap(): the matrix is {}×{} but there are {} row and {} column labels".format(
            len(values), len(values[0]) if values else 0, len(rows), len(cols)))
    width = LABEL_WIDTH + CELL * len(cols) + 40  # room for the last slanted column label
    height = HEADER_HEIGHT + CELL * len(rows) + 4
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" class="heatmap" viewBox="0 0 {w} {h}" width="{w}" '
             'height="{h}" role="img" aria-label="{label}"{id}>'.format(
                 w=width, h=height, label=escape(title or "heatmap"),
                 id=' id="{}"'.format(escape(element_id)) if element_id else "")]
    if title:
        parts.append("<title>{}</title>".format(escape(title)))
    for j, label in enumerate(cols):
        x = LABEL_WIDTH + CELL * j + CELL / 2
        parts.append('<text class="hm-col" x="{x}" y="{y}" transform="rotate(-50 {x} {y})" '
                     'font-size="12" fill="currentColor">{t}</text>'.format(x=x, y=HEADER_HEIGHT - 6,
                                                                             t=escape(str(label))))
    for i, label in enumerate(rows):
        y = HEADER_HEIGHT + CELL * i
        parts.append('<text class="hm-row" x="{x}" y="{y}" text-anchor="end" font-size="12" '
                     'fill="currentColor">{t}</text>'.format(x=LABEL_WIDTH - 6, y=y + CELL / 2 + 4,
                                                             t=escape(str(label))))
        for j, value in enumerate(values[i]):
            shown = number(value, ".{}f".format(decimals), language)  # in the lesson's digits, as every number
            x = LABEL_WIDTH + CELL * j
            # The square root spreads the small weights attention maps are full of across visible shades.
            strength = min(max(value, 0.0), 1.0) ** 0.5
            parts.append('<rect class="hm-back" x="{x}" y="{y}" width="{c}" height="{c}" fill="none"/>'
                         '<rect class="hm-cell" x="{x}" y="{y}" width="{c}" height="{c}" fill="{f}" '
                         'fill-opacity="{o:.3f}"><title>{r} → {k}: {v}</title></rect>'.format(
                             x=x, y=y, c=CELL, f=FALLBACK_FILL, o=strength, r=escape(str(label)),
                             k=escape(str(cols[j])), v=shown))
            if len(cols) <= NUMBERS_UP_TO_COLUMNS:
                parts.append('<text class="hm-value{band}" x="{x}" y="{y}" text-anchor="middle" font-size="10" '
                             'fill="currentColor">{v}</text>'.format(
                                 band=_ink_band(strength), x=x + CELL / 2, y=y + CELL / 2 + 3.5, v=shown))
    if highlight_row is not None:
        parts.append('<rect class="hm-highlight" x="{x}" y="{y}" width="{w}" height="{c}" fill="none" '
                     'stroke="currentColor" stroke-width="2.5"/>'.format(
                         x=LABEL_WIDTH - 1, y=HEADER_HEIGHT + CELL * highlight_row, w=CELL * len(cols) + 2, c=CELL))
    parts.append("</svg>")
    return Figure("".join(parts), _table(values, rows, cols, title, decimals, language), title)


def _ink_band(strength):
    """The class that picks a value's ink against its cell's shade (style.css): black or white, whichever stays at
    4.5:1 or more over the shade, which in the dark theme (a light blue over a dark page) flips far earlier than in
    the light one (a dark blue over a light page). The bounds are where the two inks cross in each theme."""
    return " deepest" if strength > DEEPEST else " deep" if strength > DEEP else ""


def heatmap_grid(matrices, rows, cols, titles, row_name="", col_name=""):
    """Several heatmaps side by side, in a grid: `matrices` is a list of grid rows, each a list of 2-D arrays.

    Every heatmap shares the row labels (for example the digits written) and the column labels
    (the digits read); titles has the same nesting as matrices.
    """
    grid = []
    for matrix_row, title_row in zip(matrices, titles):
        cells = "".join('<div class="figure-cell">{}</div>'.format(heatmap(matrix, rows, cols, title).html())
                        for matrix, title in zip(matrix_row, title_row))
        grid.append('<div class="figure-row">{}</div>'.format(cells))
    axes = ""
    if row_name or col_name:
        axes = '<figcaption>{}</figcaption>'.format(escape(" · ".join(part for part in (row_name, col_name) if part)))
    return GridFigure('<figure class="course-figure figure-grid">{}{}</figure>'.format("".join(grid), axes))


class GridFigure(Figure):
    """A figure made of several heatmaps; its markup is already complete."""

    def __init__(self, markup):
        super().__init__("", "")
        self.markup = markup

    def html(self):
        return self.markup


def _table(values, rows, cols, title, decimals, language):
    head = "".join('<th scope="col">{}</th>'.format(escape(str(label))) for label in cols)
    body = "".join('<tr><th scope="row">{}</th>{}</tr>'.format(
        escape(str(label)), "".join("<td>{}</td>".format(number(value, ".{}f".format(decimals), language)) for value in row))
        for label, row in zip(rows, values))
    caption = "<caption>{}</caption>".format(escape(title)) if title else ""
    return '<table class="heatmap-table">{}<thead><tr><td></td>{}</tr></thead><tbody>{}</tbody></table>'.format(
        caption, head, body)


def show(figure):
    """Draw a Figure in the running cell's output, in Jupyter's, or as text where nothing can draw it."""
    if not isinstance(figure, Figure):
        raise TypeError("show() draws figures made by course.display, such as heatmap(...)")
    if runner.display({"type": "display", "mime": "text/html", "data": figure.html()}):
        return
    if not _jupyter_display(figure):
        print(figure.table)


def _jupyter_display(figure):
    """Hand the figure to IPython's display (which calls _repr_html_); False outside a Jupyter kernel."""
    # Only an IPython that is already loaded counts: importing it would be slow, and Pyodide has none.
    # A terminal IPython has a shell but no kernel, and cannot draw HTML.
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if getattr(shell, "kernel", None) is None:
        return False
    ipython.display.display(figure)
    return True
