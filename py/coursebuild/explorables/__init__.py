"""The one build-side renderer of explorables: every state precomputed, the first one readable without JavaScript.

For each combination of an explorable's discrete controls the build computes the state
and draws every view (course.explorables.engine draws them, as the page's worker does);
a view keeps one copy of each distinct drawing, tagged with the combinations that show
it (data-keys="0-7 1-7"), so site/page/explorable.js only switches what is hidden.
"""

import html
import json
import os
import re
import traceback
from pathlib import Path

from course import numbers
from course.explorables import engine
from course.explorables.engine import DeclarationError

MAX_BYTES = 2_000_000  # one explorable's drawn states in the page: past this a page gets slow to load and to click


def prerender(request):
    """Draw one explorable of a lesson's package: {"html", "glue"}, or {"error"} with what went wrong."""
    module = request["module"]
    numbers.set_language(request["language"])  # the module writes its labels in the page's language, as in the page
    try:
        declaration = engine.load(module)
        states = compute(declaration)
        body = render(declaration, states, module, request["number"], request["strings"], request["language"])
        glue = declaration.glue() if declaration.glue else {}
    except DeclarationError as error:
        return {"error": "explorable '{}': {}".format(module, error)}
    except Exception as error:  # any failure of the module's own code, its import included, is a build error
        where = _where(error, request.get("folder"))
        return {"error": "explorable '{}': {}{}: {}".format(module, where, type(error).__name__, error)}
    size = len(body.encode("utf-8"))
    if size > MAX_BYTES:
        return {"error": "explorable '{}' draws {} bytes of states into the page, more than the {} allowed; give its "
                         "discrete controls fewer options, or make a control continuous (recomputed in the page)"
                         .format(module, numbers.number(size, "", "en"), numbers.number(MAX_BYTES, "", "en"))}
    return {"html": body, "glue": json.loads(json.dumps(glue))}


def _where(error, folder):
    """'file:line: ' of the innermost place in the lesson's own code (under `folder`) where `error` arose, or ''."""
    places = [(frame.filename, frame.lineno) for frame in traceback.extract_tb(error.__traceback__)]
    if isinstance(error, SyntaxError) and error.filename:
        places.append((error.filename, error.lineno))
    own = [(name, line) for name, line in places if folder and Path(name).resolve().is_relative_to(folder)]
    if not own:
        return ""
    name, line = own[-1]
    return "{}:{}: ".format(os.path.relpath(name), line)


def compute(explorable):
    """{key: state} for every combination of the discrete controls; raises DeclarationError."""
    problems = explorable.problems()
    if problems:
        raise DeclarationError(*problems[0])
    return {key: explorable.compute(key) for key in explorable.keys()}


def render(explorable, states, module, number, strings, language):
    """The figure's inner HTML: controls and views in the module's order."""
    initial = explorable.initial()
    drawings = {key: explorable.draw(state, key, language, highlight_key=initial,
                                     table_label=strings["table_alternative"]) for key, state in states.items()}
    views, parts = iter(range(len(explorable.views))), []
    for part in explorable.parts:
        if part.is_view:
            index = next(views)
            parts.append(view_html(part, index, {key: drawn[index] for key, drawn in drawings.items()},
                                   initial, view_label(part, states[initial], strings)))
        elif part.discrete:
            parts.append(CONTROLS[part.kind](part, number, strings, language))
        else:
            leader = next((control for control in explorable.discrete if control.name == part.follows), None)
            parts.append(CONTROLS[part.kind](part, number, strings, language, leader))
    if explorable.continuous:
        parts.append('<p class="xp-status" role="status" aria-live="polite"></p>')
    return "\n".join(parts) + "\n"


def view_label(view, state, strings):
    """The accessible name of a view's box: its first state's caption, or the name of a table of values."""
    data = state[view.key]
    return (data.get("caption") or strings["table_alternative"]) if isinstance(data, dict) else ""


def key_name(key):
    """A combination as the page writes it: option positions joined by dashes."""
    return "-".join(str(index) for index in key)


def view_html(view, index, drawn, initial, label):
    """One view: each distinct drawing once, shown for the combinations listed in its data-keys."""
    variants = {}
    for key, markup in drawn.items():
        variants.setdefault(markup, []).append(key_name(key))
    shown = key_name(initial)
    inner = "".join('<div class="xp-variant" data-keys="{keys}"{hidden}>{markup}</div>'.format(
        keys=" ".join(keys), hidden="" if shown in keys else " hidden", markup=markup)
        for markup, keys in variants.items())
    live = ' aria-live="polite"' if view.kind == "text" else ""
    if view.kind == "table":  # a wide table scrolls on a phone, so its box takes the focus to scroll by keyboard
        live = ' tabindex="0" role="region" aria-label="{}"'.format(html.escape(label))
    highlight = ' data-highlight="{}"'.format(html.escape(view.highlight)) if getattr(view, "highlight", None) else ""
    return '<div class="xp-view xp-view-{kind}" data-view="{index}" data-content{highlight}{live}>{inner}</div>'.format(
        kind=view.kind, index=index, highlight=highlight, live=live, inner=inner)


def _discrete(control):
    """The attributes every discrete control carries: its name, its position, its kind."""
    return 'data-control="{name}" data-kind="{kind}" data-index="{index}" data-discrete'.format(
        name=html.escape(control.name), kind=control.kind, index=control.index(control.value))


def choice_html(control, number, strings, language):
    """A labelled group of buttons, the chosen one pressed."""
    label_id = "xp-{}-{}".format(number, control.name)
    buttons = "".join('<button type="button" class="button" data-index="{i}" aria-pressed="{p}">{t}</button>'.format(
        i=i, p="true" if value == control.value else "false", t=html.escape(text))
        for i, (value, text) in enumerate(control.options))
    return ('<div class="xp-control xp-choice" role="group" aria-labelledby="{id}" {attrs}>'
            '<span class="xp-label" id="{id}">{label}</span>{buttons}</div>').format(
                id=label_id, attrs=_discrete(control), label=html.escape(control.label), buttons=buttons)


def radio_html(control, number, strings, language):
    """A fieldset of radio buttons; arrow keys move the choice."""
    radios = "".join('<label><input type="radio" name="xp-{n}-{name}" value="{i}"{checked}> {t}</label>'.format(
        n=number, name=html.escape(control.name), i=i, checked=" checked" if value == control.value else "",
        t=html.escape(text)) for i, (value, text) in enumerate(control.options))
    return '<fieldset class="xp-control xp-radio" {attrs}><legend>{label}</legend>{radios}</fieldset>'.format(
        attrs=_discrete(control), label=html.escape(control.label), radios=radios)


def toggle_html(control, number, strings, language):
    """One button whose pressed state is the value."""
    return ('<div class="xp-control xp-toggle" {attrs}><button type="button" class="button" aria-pressed="{p}">'
            '{label}</button></div>').format(attrs=_discrete(control), p="true" if control.value else "false",
                                             label=html.escape(control.label))


def counts_itself(titles):
    """Whether each step's title already holds its own number, counted from 0 ("updates done: 10" for the eleventh):
    then the page does not count the steps again, since two numbers one apart ("Step 11 of 32: updates done: 10")
    read as a mistake."""
    return len(titles) > 1 and all(re.search(r"(?<![\d.,]){}(?![\d.,])".format(i), str(title))
                                   for i, title in enumerate(titles))


def stepper_html(control, number, strings, language):
    """Previous, next and reset buttons around the title of the current step."""
    total = len(control.options)
    own = counts_itself([title for _, title in control.options])

    def title_of(i, title):
        if own:
            return strings["explorable_step_counted"].format(title=title, last=total - 1)
        return strings["explorable_step"].format(n=i + 1, total=total, title=title)

    titles = "".join('<span class="xp-step"{hidden}>{t}</span>'.format(
        hidden="" if i == control.value else " hidden", t=html.escape(title_of(i, title)))
        for i, (_, title) in enumerate(control.options))
    label_id = "xp-{}-{}".format(number, control.name)
    leap = ""
    if control.leap:
        leap = '<button type="button" class="button" data-step="leap" data-leap="{n}">{t}</button>'.format(
            n=int(control.leap[0]), t=html.escape(control.leap[1]))
    return ('<div class="xp-control xp-stepper" role="group" aria-labelledby="{id}" {attrs}>'
            '<span class="xp-label" id="{id}">{label}</span>'
            '<button type="button" class="button" data-step="previous" aria-disabled="true">{previous}</button>'
            '<button type="button" class="button" data-step="next">{next}</button>{leap}'
            '<button type="button" class="button" data-step="reset" aria-disabled="true">{reset}</button>'
            '<span class="xp-steps" aria-live="polite">{titles}</span></div>').format(
                id=label_id, label=html.escape(control.label), attrs=_discrete(control), titles=titles, leap=leap,
                previous=html.escape(strings["explorable_previous"]), next=html.escape(strings["explorable_next"]),
                reset=html.escape(strings["explorable_reset"]))


def _presets(control, leader, language):
    """data-follows and data-presets: the values the page writes back when the followed choice changes."""
    if control.follows is None:
        return ""
    presets = [_written(control, control.presets[value], language) for value, _ in leader.options]
    return ' data-follows="{}" data-presets="{}"'.format(html.escape(control.follows),
                                                         html.escape(json.dumps(presets, ensure_ascii=False)))


def _written(control, value, language):
    """A value as the text boxes show it, in the lesson's digits."""
    if control.kind == "matrix":
        return [[numbers.number(entry, control.spec, language) for entry in row] for row in value]
    return numbers.number(value, control.spec, language)


def number_html(control, number, strings, language, leader=None):
    """A labelled text box for one number, with the note that editing starts Python."""
    value = control.default({control.follows: leader.value}) if leader else control.value
    box = '<input type="text" inputmode="decimal" size="6" value="{}">'.format(
        html.escape(numbers.number(value, control.spec, language)))
    return ('<div class="xp-control xp-number" data-control="{name}" data-kind="number"{presets}>'
            '<label>{label} {box}</label><p class="xp-note">{note}</p></div>').format(
                name=html.escape(control.name), presets=_presets(control, leader, language),
                label=html.escape(control.label), box=box, note=html.escape(strings["explorable_edit_note"]))


def matrix_html(control, number, strings, language, leader=None):
    """A disclosure holding a grid of text boxes, one per entry, each named by its row and column."""
    value = control.default({control.follows: leader.value}) if leader else control.value
    head = "".join('<th scope="col">{}</th>'.format(html.escape(str(col))) for col in control.cols)
    rows = "".join("<tr><th scope=\"row\">{r}</th>{cells}</tr>".format(
        r=html.escape(str(row)), cells="".join(
            '<td><input type="text" inputmode="decimal" size="5" data-row="{i}" data-col="{j}" value="{v}" '
            'aria-label="{name}"></td>'.format(
                i=i, j=j, v=html.escape(numbers.number(value[i][j], control.spec, language)),
                name=html.escape(strings["explorable_entry"].format(matrix=control.label, row=row, col=col)))
            for j, col in enumerate(control.cols)))
        for i, row in enumerate(control.rows))
    return ('<details class="xp-control xp-matrix" data-control="{name}" data-kind="matrix"{presets}>'
            '<summary>{label}</summary><p class="xp-note">{note}</p>'
            '<table><thead><tr><td></td>{head}</tr></thead><tbody>{rows}</tbody></table></details>').format(
                name=html.escape(control.name), presets=_presets(control, leader, language),
                label=html.escape(control.label), note=html.escape(strings["explorable_edit_note"]),
                head=head, rows=rows)


CONTROLS = {
    "choice": choice_html,
    "radio": radio_html,
    "toggle": toggle_html,
    "stepper": stepper_html,
    "number": number_html,
    "matrix": matrix_html,
}
