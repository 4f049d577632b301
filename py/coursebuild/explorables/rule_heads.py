"""The rule-heads explorable: five attention maps over one sentence, a row picker and a panel."""

import html

from course.display import heatmap

from ..glue_role import format_value
from ..outputs import label_tables


def validate(state):
    """A message for the first thing wrong with the state, or None."""
    words, maps = state.get("words"), state.get("maps")
    if not isinstance(words, list) or not words:
        return "'words' must be a non-empty list"
    if not isinstance(maps, list) or not maps:
        return "'maps' must be a non-empty list"
    for index, entry in enumerate(maps):
        weights = entry.get("weights")
        if not isinstance(entry.get("label"), str):
            return "map {} has no label".format(index + 1)
        if not isinstance(weights, list) or len(weights) != len(words) or any(len(row) != len(words) for row in weights):
            return "map {} is not {}×{}".format(index + 1, len(words), len(words))
        if any(abs(sum(row) - 1.0) > 1e-4 for row in weights):
            return "a row of map {} does not sum to 1".format(index + 1)
    if not isinstance(state.get("row"), int) or not 0 <= state["row"] < len(words):
        return "'row' must index a word"
    return None


def panel_lines(state, row, strings, language):
    """One sentence per map: the word(s) that row pulls toward and the weight; the page writes the same."""
    lines = []
    for entry in state["maps"]:
        weights = entry["weights"][row]
        best = max(weights)
        weight = format_value(best, ".2f", language)
        if max(weights) - min(weights) < 1e-6:
            lines.append(strings["explorable_flat"].format(map=entry["label"], weight=weight))
            continue
        words = [state["words"][u] for u, value in enumerate(weights) if abs(value - best) < 1e-6]
        template = strings["explorable_tie"] if len(words) > 1 else strings["explorable_pull"]
        joined = ", ".join(words[:-1]) + " " + strings["and"] + " " + words[-1] if len(words) > 1 else words[0]
        lines.append(template.format(map=entry["label"], words=joined, weight=weight))
    return lines


def render(state, number, context):
    """Map buttons, the five heatmaps (one shown), a radio group of rows and the panel for the first row."""
    strings = context.strings
    row = state["row"]
    words = state["words"]
    buttons = "".join(
        '<button type="button" class="button map-button" data-map="{m}" aria-pressed="{p}">{label}</button>'.format(
            m=m, p="true" if m == 0 else "false", label=html.escape(entry["label"]))
        for m, entry in enumerate(state["maps"]))
    figures = "".join(
        '<div class="explorable-map" data-map="{m}"{hidden}>{figure}</div>'.format(
            m=m, hidden="" if m == 0 else " hidden",
            figure=label_tables(heatmap(entry["weights"], words, words, title=entry["label"],
                                        highlight_row=row).html(), strings))
        for m, entry in enumerate(state["maps"]))
    radios = "".join(
        '<label><input type="radio" name="explorable-{n}-row" value="{t}"{checked}> {w}</label>'.format(
            n=number, t=t, checked=" checked" if t == row else "", w=html.escape(word))
        for t, word in enumerate(words))
    # The panel of every row is written here, so the page never formats a number itself.
    panels = "".join(
        '<div class="panel-row" data-row="{t}"{hidden}><p class="panel-title">{title}</p><ul>{lines}</ul></div>'.format(
            t=t, hidden="" if t == row else " hidden",
            title=html.escape(strings["explorable_panel"].format(word=words[t])),
            lines="".join("<li>{}</li>".format(html.escape(line))
                          for line in panel_lines(state, t, strings, context.lesson.language)))
        for t in range(len(words)))
    return (
        '<div class="explorable-maps" role="group" aria-label="{maps_label}">{buttons}</div>\n'
        '{figures}\n'
        '<fieldset class="explorable-rows"><legend>{rows_label}</legend>{radios}</fieldset>\n'
        '<div class="explorable-panel" aria-live="polite">{panels}</div>\n'
    ).format(maps_label=html.escape(strings["explorable_maps"]), buttons=buttons, figures=figures,
             rows_label=html.escape(strings["explorable_rows"]), radios=radios, panels=panels)
