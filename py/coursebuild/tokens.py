"""Where things sit in markdown-it tokens: the file line of each inline piece (roles, formulas)."""

BREAKS = ("softbreak", "hardbreak")


def children_with_lines(token):
    """(child, 1-based line) for each inline child of `token`; the line counts the breaks before it."""
    if token.map is None:
        return [(child, None) for child in token.children or ()]
    line = token.map[0] + 1
    placed = []
    for child in token.children or ():
        placed.append((child, line))
        if child.type in BREAKS:
            line += 1
    return placed
