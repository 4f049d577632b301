"""The sinusoidal table as a heatmap, and the dot product of one position's row with the rows after it.

The dot product of rows p and p + k is the sum over pairs of cos(k · rate_i): it depends on the
distance k alone, not on p, which the panel measures across every p the table has.
"""

import numpy as np

from course.explorables.engine import Choice, Explorable, Heatmap, Line, Text, Value
from course.nn.layers import positional_encoding

WIDTHS = (8, 16, 32)
LENGTHS = (8, 16, 32)
FROM = (0, 3, 7)


def table(n_positions, d_model):
    """The encoding, float64: (n_positions, d_model)."""
    return positional_encoding(n_positions, d_model, np.float64)


def dots_by_distance(P, p):
    """Row p's dot product with rows p, p + 1, … of the table P: (n_positions - p,)."""
    return P[p:] @ P[p]


def spread_over_starts(P):
    """For each distance k, the largest gap between the dot products P[p] · P[p + k] over every p: (n,)."""
    n = len(P)
    return np.array([np.ptp([P[p] @ P[p + k] for p in range(n - k)]) for k in range(n)])


def state(width, length, start):
    """The heatmap of the table (shifted to [0, 1]), the dot products from `start`, and a summary."""
    P = table(length, width)
    dots = dots_by_distance(P, start)
    distances = list(range(len(dots)))
    return {
        "table": {"values": ((P + 1) / 2).tolist(), "rows": [str(t) for t in range(length)],
                  "cols": [str(j) for j in range(width)],
                  "title": "Rows: positions; columns: coordinates; shade: (value + 1) / 2"},
        "dots": {"x": distances, "series": [("row {} · row {} + k".format(start, start), dots.tolist())],
                 "title": "Dot product with the rows after position {}".format(start), "x_label": "distance k",
                 "y_label": "dot product"},
        "summary": [
            ("title", "Width {}, positions 0 to {}".format(width, length - 1)),
            ("At distance 0 the dot product is {self}: each pair of columns adds sin² + cos² = 1.",
             {"self": Value(dots[0], ".2f")}),
            ("At distance 1 it is {one}; the smallest value in this curve is {low}, at distance {where}.",
             {"one": Value(dots[1] if len(dots) > 1 else dots[0], ".2f"), "low": Value(dots.min(), ".2f"),
              "where": Value(int(dots.argmin()), ".0f")}),
            ("Over every starting position, the same distance gives dot products that differ by at most {gap}.",
             {"gap": Value(spread_over_starts(P).max(), ".1e")}),
        ],
    }


def glue():
    """Numbers the prose quotes: width 16, 16 positions."""
    P = table(16, 16)
    dots = dots_by_distance(P, 0)
    return {"pd_self_16": float(dots[0]), "pd_one_16": float(dots[1]), "pd_far_16": float(dots[-1]),
            "pd_gap_16": float(spread_over_starts(P).max()),
            "pd_min_all": float(min(table(n, d)[p:] .dot(table(n, d)[p]).min()
                                    for n in LENGTHS for d in WIDTHS for p in FROM))}


def explorable():
    """Width, number of positions and starting position; the heatmap, the curve and the panel."""
    return Explorable([
        Choice("width", "Width d_model", list(WIDTHS), value=16),
        Choice("length", "Positions", list(LENGTHS), value=16),
        Choice("start", "Compare from position", list(FROM), value=0),
        Heatmap("table"),
        Line("dots"),
        Text("summary"),
    ], state, glue)
