"""HTML for a cell's output items (streams, errors, displays, progress, notes), as the build writes them.

The page's JavaScript (site/page/output.js) builds the same structure from the
same items when a cell runs in the browser.
"""

import html
import math
import re

from .sanitize import sanitize


def label_tables(html_text, strings):
    """Write the lesson-language label on the table disclosure of figures from course.display."""
    return html_text.replace('<summary class="figure-table-label"></summary>',
                             '<summary class="figure-table-label">{}</summary>'.format(
                                 html.escape(strings["table_alternative"])))


def progress_text(item, strings):
    """The progress line in the UI language; site/page/output.js writes the same."""
    decimal = strings["decimal_separator"]
    values = {key: str(value).replace(".", decimal) for key, value in item.items()}
    text = _fill_parts(strings["progress_text"], values)
    if "digits" in item:
        text += _fill_parts(strings["progress_accuracy"], values)
    if item.get("stopped"):
        text += strings["progress_stopped"]
    return text


def _fill_parts(template, values):
    """`template` filled with `values`, without the " · " parts whose placeholders have no value."""
    parts = [part for part in template.split(" · ") if all(name in values for name in re.findall(r"\{(\w+)\}", part))]
    return " · ".join(part.format_map(values) for part in parts)


def _bar(item):
    """The progress element's attributes: max and value when steps and step are numbers, none when no end is known."""
    steps, step = item.get("steps"), item.get("step")
    finite = all(isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
                 for value in (steps, step))
    if not finite or steps <= 0:
        return ""
    return ' max="{}" value="{}"'.format(steps, min(max(step, 0), steps))


def render_output(items, strings):
    """HTML for a cell's output items; the page's JavaScript builds the same structure.

    Every value from an item is escaped, attributes included: cell code can put anything in them.
    """
    parts = []
    for item in items:
        kind = item["type"]
        if kind == "stream":
            parts.append('<pre class="out out-{}">{}</pre>'.format(html.escape(str(item["name"])),
                                                                  html.escape(item["text"])))
        elif kind == "error":
            parts.append('<pre class="out out-error">{}</pre>'.format(html.escape(item["text"])))
            if item.get("explanation"):  # `name` in its sentences is code, as the page shows it
                pieces = item["explanation"].split("`")
                parts.append('<p class="out out-explain">{}</p>'.format("".join(
                    html.escape(piece) if index % 2 == 0 else "<code>{}</code>".format(html.escape(piece))
                    for index, piece in enumerate(pieces))))
        elif kind == "display":
            # Only the course's display helper makes these; the page sanitises the same markup.
            parts.append('<div class="out out-display">{}</div>'.format(label_tables(sanitize(item["data"]), strings)))
        elif kind == "progress":
            parts.append('<div class="out out-progress"><progress{}></progress> '
                         '<span class="progress-text">{}</span></div>'.format(
                             _bar(item), html.escape(progress_text(item, strings))))
        elif kind == "truncated":
            parts.append('<p class="out out-note">{}</p>'.format(
                html.escape(strings["truncated"].format(lines=item["lines"]))))
    return "".join(parts)
