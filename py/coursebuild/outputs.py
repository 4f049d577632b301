"""HTML for a cell's output items (streams, errors, displays, progress, notes), as the build writes them.

The page's JavaScript (site/page/output.js) builds the same structure from the
same items when a cell runs in the browser.
"""

import html

from .sanitize import sanitize


def label_tables(html_text, strings):
    """Write the lesson-language label on the table disclosure of figures from course.display."""
    return html_text.replace('<summary class="figure-table-label"></summary>',
                             '<summary class="figure-table-label">{}</summary>'.format(
                                 html.escape(strings["table_alternative"])))


def progress_text(item, strings):
    """The progress line in the UI language; site/page/output.js writes the same."""
    decimal = strings["decimal_separator"]
    values = _KeepMissing((key, str(value).replace(".", decimal)) for key, value in item.items())
    text = strings["progress_text"].format_map(values)
    if "digits" in item:
        text += strings["progress_accuracy"].format_map(values)
    if item.get("stopped"):
        text += strings["progress_stopped"]
    return text


class _KeepMissing(dict):
    """Format values that leave a placeholder with no value as it is, as site/page/strings.js's format does."""

    def __missing__(self, key):
        return "{" + key + "}"


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
        elif kind == "display":
            # Only the course's display helper makes these; the page sanitises the same markup.
            parts.append('<div class="out out-display">{}</div>'.format(label_tables(sanitize(item["data"]), strings)))
        elif kind == "progress":
            parts.append('<div class="out out-progress"><progress max="{}" value="{}"></progress> '
                         '<span class="progress-text">{}</span></div>'.format(
                             html.escape(str(item.get("steps", 1))), html.escape(str(item.get("step", 0))),
                             html.escape(progress_text(item, strings))))
        elif kind == "truncated":
            parts.append('<p class="out out-note">{}</p>'.format(
                html.escape(strings["truncated"].format(lines=item["lines"]))))
    return "".join(parts)
