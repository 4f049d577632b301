"""The build's copy of the page's whitelist (site/page/sanitize.js) for display markup from cells."""

from html import escape
from html.parser import HTMLParser

ELEMENTS = {"div", "figure", "figcaption", "details", "summary", "table", "caption", "thead", "tbody", "tr", "th", "td",
            "svg", "g", "rect", "text", "title", "desc", "line", "path", "circle"}
ATTRIBUTES = {"class", "scope", "viewbox", "width", "height", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r",
              "d", "fill", "fill-opacity", "stroke", "stroke-width", "transform", "text-anchor", "font-size", "role",
              "aria-label", "xmlns"}
VOID_IN_SVG = {"rect", "line", "path", "circle"}


class _Whitelist(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = []
        self.skipping = 0  # depth inside a dropped element whose text must go too (script, style)

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skipping += 1
        if tag not in ELEMENTS or self.skipping:
            return
        kept = "".join(' {}="{}"'.format("viewBox" if name == "viewbox" else name, escape(value or ""))
                       for name, value in attrs
                       if name in ATTRIBUTES and not (value or "").strip().lower().startswith("javascript:"))
        self.out.append("<{}{}>".format(tag, kept))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag in ELEMENTS and not self.skipping:
            self.out.append("</{}>".format(tag))

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skipping = max(0, self.skipping - 1)
        elif tag in ELEMENTS and not self.skipping:
            self.out.append("</{}>".format(tag))

    def handle_data(self, data):
        if not self.skipping:
            self.out.append(escape(data, quote=False))


def sanitize(markup):
    """Only whitelisted elements and attributes of `markup`, everything else dropped, text escaped."""
    parser = _Whitelist()
    parser.feed(markup)
    parser.close()
    return "".join(parser.out)
