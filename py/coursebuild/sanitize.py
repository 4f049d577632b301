"""The whitelist for display markup from cells, read from site/whitelist.json as the page's sanitize.js is."""

import json
from html import escape
from html.parser import HTMLParser
from pathlib import Path

WHITELIST = json.loads((Path(__file__).resolve().parents[2] / "site" / "whitelist.json").read_text(encoding="utf-8"))
ELEMENTS = frozenset(WHITELIST["elements"])
ATTRIBUTES = frozenset(WHITELIST["attributes"])


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
