"""Figures of lesson 003 (one attention head), as SVG for course.display.show, labelled in the page's language.

The pictures reuse the heatmap's classes (hm-cell, hm-back, hm-value, hm-highlight) so their colours
follow the page's light and dark themes. Every number they draw is passed in by the lesson's cell.
Each figure is narrow (at most 360 units wide) so it stays legible on a 375-pixel screen.
"""

from html import escape

from course.display import Figure, GridFigure
from course.numbers import number

from .language import phrases

WIDTH = 360
TEXT = {  # every label the figures write, per edition of the lesson
    "uk": {
        "legend": ("вхід", "внесок уваги"), "coordinate": "координата", "sum": "сума",
        "token_space": "Простір представлень токенів", "coordinates_here": "{} координат у цьому прикладі",
        "current": "Поточне представлення: те, що доступне позиції.",
        "reads_all": "Кожна координата запиту читає всі координати x.",
        "matching_space": "Простір зіставлення запитів і ключів", "score_bank": "оцінка = q_bank · k_river / √{}",
        "subspace_title": "Запит і ключ: з {} координат у {}", "subspace_columns": ["крок", "звідки", "куди"],
        "coordinates": "{} координат", "score": "оцінка = q · k / √{}", "two_vectors": "два вектори по {}",
        "one_number": "одне число",
        "input": "X · одна вхідна матриця · {} × d", "both_rows": "рядок {}: обидві суміші", "row": "рядок {}",
        "wo": "@ Wo · одна навчена матриця · ({} d_v) × d", "delta": "Δ = Concat @ Wo · оновлення · {} × d",
        "residual": "Y = X + Δ · залишкове додавання: X додається тут",
        "heads_title": "{} голови, {} токени: рядки {} виділено",
        "one_matrix": "1 матриця", "projections": "Wq, Wk, Wv голови {}", "trained_3": "3 навчені матриці",
        "qkv": "Q, K, V голови {}", "computed_3": "3 обчислені матриці", "ah": "A, H голови {}",
        "computed_2": "2 обчислені матриці", "computed_1": "1 обчислена матриця", "trained_1": "1 навчена матриця",
        "delta_y": "Δ і Y = X + Δ", "heads_columns": ["об’єкт", "скільки", "форма"],
        "head": "Голова {}", "head_trained": "Wq, Wk, Wv: 3 навчені", "head_own": "матриці цієї голови",
        "step": "крок", "loss": "втрата",
    },
    "en": {
        "legend": ("input", "attention’s contribution"), "coordinate": "coordinate", "sum": "sum",
        "token_space": "The space of token representations", "coordinates_here": "{} coordinates in this example",
        "current": "The current representation: what the position holds.",
        "reads_all": "Every coordinate of the query reads all of x.",
        "matching_space": "The space where queries meet keys", "score_bank": "score = q_bank · k_river / √{}",
        "subspace_title": "Query and key: from {} coordinates to {}", "subspace_columns": ["step", "from", "to"],
        "coordinates": "{} coordinates", "score": "score = q · k / √{}", "two_vectors": "two vectors of {}",
        "one_number": "one number",
        "input": "X · one input matrix · {} × d", "both_rows": "row {}: both mixtures", "row": "row {}",
        "wo": "@ Wo · one trained matrix · ({} d_v) × d", "delta": "Δ = Concat @ Wo · the update · {} × d",
        "residual": "Y = X + Δ · residual connection: X is added here",
        "heads_title": "{} heads, {} tokens: the rows of {} highlighted",
        "one_matrix": "1 matrix", "projections": "Wq, Wk, Wv of head {}", "trained_3": "3 trained matrices",
        "qkv": "Q, K, V of head {}", "computed_3": "3 computed matrices", "ah": "A, H of head {}",
        "computed_2": "2 computed matrices", "computed_1": "1 computed matrix", "trained_1": "1 trained matrix",
        "delta_y": "Δ and Y = X + Δ", "heads_columns": ["object", "how many", "shape"],
        "head": "Head {}", "head_trained": "Wq, Wk, Wv: 3 trained", "head_own": "matrices of this head",
        "step": "step", "loss": "loss",
    },
    "es": {
        "legend": ("entrada", "aportación de la atención"), "coordinate": "coordenada", "sum": "suma",
        "token_space": "El espacio de las representaciones", "coordinates_here": "{} coordenadas en este ejemplo",
        "current": "La representación actual: lo que tiene la posición.",
        "reads_all": "Cada coordenada de la consulta lee todo x.",
        "matching_space": "El espacio donde se comparan consultas y claves",
        "score_bank": "puntuación = q_bank · k_river / √{}",
        "subspace_title": "Consulta y clave: de {} coordenadas a {}", "subspace_columns": ["paso", "de", "a"],
        "coordinates": "{} coordenadas", "score": "puntuación = q · k / √{}", "two_vectors": "dos vectores de {}",
        "one_number": "un número",
        "input": "X · una matriz de entrada · {} × d", "both_rows": "fila {}: las dos mezclas", "row": "fila {}",
        "wo": "@ Wo · una matriz entrenada · ({} d_v) × d", "delta": "Δ = Concat @ Wo · la actualización · {} × d",
        "residual": "Y = X + Δ · conexión residual: aquí se suma X",
        "heads_title": "{} cabezas, {} tokens: filas de {} resaltadas",
        "one_matrix": "1 matriz", "projections": "Wq, Wk, Wv de la cabeza {}", "trained_3": "3 matrices entrenadas",
        "qkv": "Q, K, V de la cabeza {}", "computed_3": "3 matrices calculadas", "ah": "A, H de la cabeza {}",
        "computed_2": "2 matrices calculadas", "computed_1": "1 matriz calculada", "trained_1": "1 matriz entrenada",
        "delta_y": "Δ e Y = X + Δ", "heads_columns": ["objeto", "cuántos", "forma"],
        "head": "Cabeza {}", "head_trained": "Wq, Wk, Wv: 3 entrenadas", "head_own": "matrices de esta cabeza",
        "step": "paso", "loss": "pérdida",
    },
}


def _svg(width, height, label, parts):
    """One SVG element with an accessible label, styled like the course's heatmaps."""
    return ('<svg xmlns="http://www.w3.org/2000/svg" class="heatmap" viewBox="0 0 {w} {h}" width="{w}" '
            'height="{h}" role="img" aria-label="{label}"><title>{label}</title>{body}</svg>').format(
                w=width, h=height, label=escape(label), body="".join(parts))


def _text(x, y, text, size=12, anchor="start"):
    """A line of text in the page's foreground colour."""
    return ('<text class="hm-value" x="{:g}" y="{:g}" font-size="{}" text-anchor="{}" '
            'fill="currentColor">{}</text>').format(x, y, size, anchor, escape(str(text)))


def _rect(x, y, w, h, kind="back", opacity=1.0):
    """A rectangle: 'back' (page background with a border), 'fill' (the heat colour) or 'mark' (outlined)."""
    if kind == "mark":
        return ('<rect class="hm-highlight" x="{:g}" y="{:g}" width="{:g}" height="{:g}" fill="none" '
                'stroke="currentColor" stroke-width="2"/>').format(x, y, w, h)
    cls = "hm-back" if kind == "back" else "hm-cell"
    return ('<rect class="{}" x="{:g}" y="{:g}" width="{:g}" height="{:g}" fill="#1f5fbf" '
            'fill-opacity="{:.2f}"/>').format(cls, x, y, w, h, opacity)


def _arrow(x1, y1, x2, y2):
    """A straight arrow from (x1, y1) to (x2, y2), its head a small filled triangle."""
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1e-9)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    bx, by = x2 - 7 * ux, y2 - 7 * uy
    head = "M{:.1f} {:.1f} L{:.1f} {:.1f} L{:.1f} {:.1f} Z".format(
        x2, y2, bx - 3.5 * uy, by + 3.5 * ux, bx + 3.5 * uy, by - 3.5 * ux)
    return ('<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="currentColor" stroke-width="1.5"/>'
            '<path d="{}" fill="currentColor"/>').format(x1, y1, bx, by, head)


def _table(caption, header, rows):
    """The figure's numbers (or steps) as an HTML table for screen readers."""
    head = "".join('<th scope="col">{}</th>'.format(escape(str(cell))) for cell in header)
    body = "".join("<tr><th scope=\"row\">{}</th>{}</tr>".format(
        escape(str(row[0])), "".join("<td>{}</td>".format(escape(str(cell))) for cell in row[1:])) for row in rows)
    return '<table class="heatmap-table"><caption>{}</caption><thead><tr>{}</tr></thead><tbody>{}</tbody></table>'.format(
        escape(caption), head, body)


def _details(table):
    """The table behind a closed disclosure; the page writes the disclosure's label in its language."""
    return '<details class="figure-table"><summary class="figure-table-label"></summary>{}</details>'.format(table)


def residual_bars(panels, coordinates, title, legend=None):
    """One bar chart per panel: each coordinate's input, with the attention update stacked on top of it.

    `panels` is a list of (caption, input vector, update vector); the bars share one scale.
    """
    say = phrases(TEXT)
    legend = legend or say["legend"]
    top = max(float(a) + float(b) for _, base, update in panels for a, b in zip(base, update))
    svgs = [_residual_panel(caption, base, update, coordinates, top, legend) for caption, base, update in panels]
    cells = "".join('<div class="figure-cell">{}</div>'.format(svg) for svg in svgs)
    header = [say["coordinate"]] + ["{}: {}".format(caption, part) for caption, _, _ in panels
                                    for part in (legend[0], legend[1], say["sum"])]
    rows = [[name] + [_decimal(value) for _, base, update in panels
                      for value in (base[i], update[i], base[i] + update[i])]
            for i, name in enumerate(coordinates)]
    return GridFigure('<figure class="course-figure figure-grid"><figcaption class="figure-title">{}</figcaption>'
                      '<div class="figure-row">{}</div>{}</figure>'.format(
                          escape(title), cells, _details(_table(title, header, rows))))


def _residual_panel(caption, base, update, coordinates, top, legend):
    """The stacked bars of one sentence."""
    height, floor, bar_top = 250, 205, 58
    scale = (floor - bar_top) / top
    slot = (WIDTH - 20) / len(coordinates)
    parts = [_text(10, 18, caption, 13),
             _rect(10, 28, 12, 12, "fill", 0.3), _text(27, 38, legend[0], 11),
             _rect(120, 28, 12, 12, "fill", 0.95), _text(137, 38, legend[1], 11)]
    for i, name in enumerate(coordinates):
        x = 10 + slot * i + slot * 0.2
        w = slot * 0.6
        low, high = float(base[i]) * scale, float(update[i]) * scale
        parts.append(_rect(x, floor - low, w, low, "fill", 0.3))
        parts.append(_rect(x, floor - low - high, w, high, "fill", 0.95))
        parts.append(_text(x + w / 2, floor - low - high - 5, _decimal(float(base[i]) + float(update[i])), 11,
                           "middle"))
        parts.append(_text(x + w / 2, floor + 16, name, 11, "middle"))
    parts.append('<line x1="10" y1="{f}" x2="{r}" y2="{f}" stroke="currentColor" stroke-width="1"/>'.format(
        f=floor, r=WIDTH - 10))
    label = "{}: {}".format(caption, "; ".join("{} {}".format(name, _decimal(float(a) + float(b)))
                                                for name, a, b in zip(coordinates, base, update)))
    return _svg(WIDTH, height, label, parts)


def subspace_figure(d_model, d_k):
    """The two spaces of one head: token representations (d_model wide) and query/key matching (d_k wide)."""
    say = phrases(TEXT)
    parts = [_rect(5, 5, WIDTH - 10, 130),
             _text(15, 25, say["token_space"], 13),
             _text(15, 42, say["coordinates_here"].format(_digits(d_model)), 11),
             _text(15, 62, say["current"], 11),
             _text(15, 77, say["reads_all"], 11)]
    for x, y, name in ((70, 108, "x_bank"), (290, 116, "x_river")):
        parts.append('<circle class="hm-cell" cx="{}" cy="{}" r="5" fill="#1f5fbf"/>'.format(x, y))
        parts.append(_text(x, y - 10, name, 12, "middle"))
    parts += [_arrow(70, 114, 70, 212), _arrow(290, 122, 290, 212),
              _text(78, 162, "q = x_bank @ Wq", 11), _text(282, 190, "k = x_river @ Wk", 11, "end"),
              _rect(5, 215, WIDTH - 10, 125),
              _text(15, 235, say["matching_space"], 13),
              _text(15, 252, say["coordinates_here"].format(_digits(d_k)), 11),
              _arrow(60, 312, 150, 272), _text(150, 268, "q_bank", 12, "middle"),
              _arrow(60, 312, 215, 290), _text(250, 293, "k_river", 12, "middle"),
              _text(15, 333, say["score_bank"].format(d_k), 12)]
    title = say["subspace_title"].format(_digits(d_model), _digits(d_k))
    wide, narrow = say["coordinates"].format(_digits(d_model)), say["coordinates"].format(_digits(d_k))
    table = _table(title, say["subspace_columns"], [
        ["q = x_bank @ Wq", wide, narrow],
        ["k = x_river @ Wk", wide, narrow],
        [say["score"].format(d_k), say["two_vectors"].format(_digits(d_k)), say["one_number"]]])
    return Figure(_svg(WIDTH, 345, title, parts), table, title)


def heads_figure(tokens, heads, highlight):
    """One self-attention sublayer: the input X, `heads` heads with their Q, K, V and H, Concat, Wo and Y = X + Δ."""
    n = len(tokens)
    row = 16
    mark = tokens.index(highlight)
    say = phrases(TEXT)
    parts = [_text(10, 16, say["input"].format(n), 12)]
    parts += _matrix(10, 24, WIDTH - 20, row, ["x_{0} = e_{0}".format(t) for t in tokens], mark)
    y = 24 + n * row + 8
    column = (WIDTH - 30) / heads
    bottoms = []
    for h in range(heads):
        x = 10 + h * (column + 10)
        parts.append(_arrow(x + column / 2, y, x + column / 2, y + 20))
        parts += _head(x, y + 22, column, row, tokens, mark, h + 1)
        bottoms.append(y + 22 + _head_height(n, row))
    y = max(bottoms)
    joined = ", ".join("H({})".format(h + 1) for h in range(heads)) if heads <= 3 else "H(1), …, H({})".format(heads)
    parts += [_arrow(WIDTH / 2, y + 2, WIDTH / 2, y + 20),
              _text(10, y + 34, "Concat({}) · {} × ({} d_v)".format(joined, n, heads), 12)]
    parts += _matrix(10, y + 42, WIDTH - 20, row, [say["both_rows"].format(t) if heads == 2
                                                   else say["row"].format(t) for t in tokens], mark, heads)
    y += 42 + n * row + 4
    parts += [_arrow(30, y, 30, y + 22),
              _text(40, y + 16, say["wo"].format(heads), 11),
              _text(10, y + 40, say["delta"].format(n), 12),
              _text(10, y + 60, say["residual"], 12)]
    height = y + 70
    title = say["heads_title"].format(heads, n, highlight)
    steps = [["X", say["one_matrix"], "{} × d".format(n)]]
    for h in range(1, heads + 1):
        steps += [[say["projections"].format(h), say["trained_3"], "d × d_k, d × d_k, d × d_v"],
                  [say["qkv"].format(h), say["computed_3"], "{0} × d_k, {0} × d_k, {0} × d_v".format(n)],
                  [say["ah"].format(h), say["computed_2"], "{0} × {0}, {0} × d_v".format(n)]]
    steps += [["Concat", say["computed_1"], "{} × ({} d_v)".format(n, heads)],
              ["Wo", say["trained_1"], "({} d_v) × d".format(heads)],
              [say["delta_y"], say["computed_2"], "{} × d".format(n)]]
    table = _table(title, say["heads_columns"], steps)
    return Figure(_svg(WIDTH, height, title, parts), table, title)


def _head(x, y, width, row, tokens, mark, number):
    """One head's column: its three projections, Q, K, V, the map A and the mixture H."""
    n = len(tokens)
    say = phrases(TEXT)
    parts = [_rect(x, y, width, _head_height(n, row)),
             _text(x + 8, y + 16, say["head"].format(number), 13),
             _text(x + 8, y + 32, say["head_trained"], 11),
             _text(x + 8, y + 46, say["head_own"], 11)]
    top = y + 56
    for name in ("Q", "K", "V"):
        parts.append(_text(x + 8, top + 12, "{} = X @ W{}".format(name, name.lower()), 11))
        parts += _matrix(x + 8, top + 18, width - 16, row, ["{}_{}".format(name.lower(), t) for t in tokens], mark)
        top += n * row + 22
    parts += [_text(x + 8, top + 10, "A = softmax(Q Kᵀ / √d_k)", 10),
              _text(x + 8, top + 28, "H({}) = A @ V · {} × d_v".format(number, n), 11)]
    parts += _matrix(x + 8, top + 34, width - 16, row, ["h_{}".format(t) for t in tokens], mark)
    return parts


def _head_height(n, row):
    """The height of one head's column for n tokens drawn as rows of height `row`."""
    return 56 + 3 * (n * row + 22) + 34 + n * row + 8


def _matrix(x, y, width, row, labels, mark, pieces=1):
    """A matrix drawn as labelled rows; the row `mark` is filled and outlined, `pieces` splits rows in blocks."""
    parts = []
    for i, label in enumerate(labels):
        top = y + i * row
        for p in range(pieces):
            piece = width / pieces
            parts.append(_rect(x + p * piece, top, piece, row, "fill" if i == mark else "back",
                               0.35 if i == mark else 1.0))
        parts.append(_text(x + 6, top + row - 4, label, 11))
    parts.append(_rect(x, y + mark * row, width, row, "mark"))
    return parts


def _decimal(value):
    """A number with two decimals, in the lesson's digits."""
    return number(float(value), ".2f")


def _digits(value):
    """An integer with the lesson's thousands separators."""
    return number(int(value))


def loss_curve(losses, title, every=10, x_name=None, y_name=None):
    """A line of one training's step losses (a list of floats), with a table of every `every`-th step."""
    x_name, y_name = x_name or phrases(TEXT)["step"], y_name or phrases(TEXT)["loss"]
    left, top, plot_w, plot_h = 44, 12, WIDTH - 56, 150
    highest = max(max(losses), 1e-12)
    points = " L".join("{:.1f} {:.1f}".format(left + plot_w * i / max(len(losses) - 1, 1),
                                             top + plot_h * (1 - loss / highest)) for i, loss in enumerate(losses))
    parts = [_rect(left, top, plot_w, plot_h),
             '<path d="M{}" fill="none" stroke="currentColor" stroke-width="1.5"/>'.format(points),
             _text(left - 4, top + 10, _decimal(highest), 11, "end"),
             _text(left - 4, top + plot_h, "0", 11, "end"),
             _text(left, top + plot_h + 16, "1", 11),
             _text(left + plot_w, top + plot_h + 16, str(len(losses)), 11, "end"),
             _text(left + plot_w / 2, top + plot_h + 16, x_name, 11, "middle"),
             _text(4, top + plot_h / 2, y_name, 11)]
    rows = [[i + 1, number(losses[i], ".3f")] for i in range(0, len(losses), every)]
    if (len(losses) - 1) % every:
        rows.append([len(losses), number(losses[-1], ".3f")])
    return Figure(_svg(WIDTH, top + plot_h + 24, title, parts), _table(title, [x_name, y_name], rows), title)
