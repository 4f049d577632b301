"""The sinusoidal table as a heatmap, and the dot product of one position's row with the rows after it.

The dot product of rows p and p + k is the sum over pairs of cos(k · rate_i): it depends on the
distance k alone, not on p, which the panel measures across every p the table has. The curve starts at
k = 1: the value at k = 0 (a row with itself) is what a quiz above the figure asks, and the curve's
y axis is labelled with its largest value. Every start in FROM leaves at least three rows after it in
the shortest table, so every curve has a few points.
"""

import numpy as np

from course.explorables.engine import Choice, Explorable, Heatmap, Line, Text, Value
from course.nn.layers import positional_encoding
from course.numbers import current_language

WIDTHS = (8, 16, 32)
LENGTHS = (8, 16, 32)
FROM = (0, 2, 4)
TEXT = {  # what the figure writes, per language of the page
    "en": {"width": "Width d_model", "length": "Positions", "start": "Compare from position",
           "table": "Rows: positions; columns: coordinates; shade: (value + 1) / 2",
           "series": "row {p} · row {p} + k", "dots": "Dot product with the rows after position {p}",
           "x": "distance k", "y": "dot product", "heading": "Width {d}, positions 0 to {last}",
           "curve": "At distance 1 the dot product is {one}; the smallest value in this curve is {low}, at distance "
                    "{where}.",
           "gap": "Over every starting position, the same distance gives dot products that differ by at most {gap}."},
    "es": {"width": "Anchura d_model", "length": "Posiciones", "start": "Comparar desde la posición",
           "table": "Filas: posiciones; columnas: coordenadas; tono: (valor + 1) / 2",
           "series": "fila {p} · fila {p} + k", "dots": "Producto escalar con las filas que siguen a la posición {p}",
           "x": "distancia k", "y": "producto escalar", "heading": "Anchura {d}, posiciones de 0 a {last}",
           "curve": "A distancia 1 el producto escalar vale {one}; el menor valor de esta curva es {low}, a "
                    "distancia {where}.",
           "gap": "Desde cualquier posición de partida, la misma distancia da productos escalares que difieren "
                  "como mucho en {gap}."},
    "uk": {"width": "Ширина d_model", "length": "Позиції", "start": "Порівнювати від позиції",
           "table": "Рядки: позиції; стовпці: координати; відтінок: (значення + 1) / 2",
           "series": "рядок {p} · рядок {p} + k", "dots": "Скалярний добуток із рядками після позиції {p}",
           "x": "відстань k", "y": "скалярний добуток", "heading": "Ширина {d}, позиції від 0 до {last}",
           "curve": "На відстані 1 скалярний добуток дорівнює {one}; найменше значення цієї кривої — {low}, на "
                    "відстані {where}.",
           "gap": "Від будь-якої початкової позиції та сама відстань дає скалярні добутки, що різняться щонайбільше "
                  "на {gap}."},
}


def text(name, **values):
    """The figure's phrase `name` in the page's language, with its plain values filled in."""
    return TEXT[current_language()][name].format(**values)


def table(n_positions, d_model):
    """The encoding, float64: (n_positions, d_model)."""
    return positional_encoding(n_positions, d_model, np.float64)


def dots_by_distance(P, p):
    """Row p's dot product with rows p + 1, p + 2, … of the table P, for the distances 1, 2, …: (n_positions - p - 1,)."""
    return P[p + 1:] @ P[p]


def spread_over_starts(P):
    """For each distance k, the largest gap between the dot products P[p] · P[p + k] over every p: (n,)."""
    n = len(P)
    return np.array([np.ptp([P[p] @ P[p + k] for p in range(n - k)]) for k in range(n)])


def state(width, length, start):
    """The heatmap of the table (shifted to [0, 1]), the dot products from `start` at distances 1, 2, …, and a
    summary of that curve."""
    if not 0 <= start < length - 1:
        raise ValueError("position {} has no row after it in a table of {} positions".format(start, length))
    P = table(length, width)
    dots = dots_by_distance(P, start)
    distances = list(range(1, len(dots) + 1))
    words = TEXT[current_language()]
    return {
        "table": {"values": ((P + 1) / 2).tolist(), "rows": [str(t) for t in range(length)],
                  "cols": [str(j) for j in range(width)],
                  "title": text("table")},
        "dots": {"x": distances, "series": [(text("series", p=start), dots.tolist())],
                 "title": text("dots", p=start), "x_label": text("x"), "y_label": text("y")},
        "summary": [
            ("title", text("heading", d=width, last=length - 1)),
            (words["curve"], {"one": Value(dots[0], ".2f"), "low": Value(dots.min(), ".2f"),
                              "where": Value(distances[int(dots.argmin())], ".0f")}),
            (words["gap"], {"gap": Value(spread_over_starts(P).max(), ".1e")}),
        ],
    }


def glue():
    """Numbers the prose quotes: width 16, 16 positions; the smallest dot product of two different rows over every
    table and start the figure offers; and its longest table."""
    P = table(16, 16)
    dots = dots_by_distance(P, 0)
    return {"pd_self_16": float(P[0] @ P[0]), "pd_one_16": float(dots[0]), "pd_far_16": float(dots[-1]),
            "pd_gap_16": float(spread_over_starts(P).max()),
            "pd_min_all": float(min(dots_by_distance(table(n, d), p).min()
                                    for n in LENGTHS for d in WIDTHS for p in FROM)),
            "pd_longest": max(LENGTHS)}


def explorable():
    """Width, number of positions and starting position; the heatmap, the curve and the panel."""
    return Explorable([
        Choice("width", text("width"), list(WIDTHS), value=16),
        Choice("length", text("length"), list(LENGTHS), value=16),
        Choice("start", text("start"), list(FROM), value=0),
        Heatmap("table"),
        Line("dots"),
        Text("summary"),
    ], state, glue)
