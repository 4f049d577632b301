// A progress item ({epoch, epochs, step, steps, loss, digits, sequences, stopped}) as the page shows it: the
// line of text (py/coursebuild/outputs.py's progress_text writes the same) and where the bar stands.
import { format } from "./strings.js";

/** The progress line in the UI language; a part (between " · ") naming a value the item lacks is left out. */
export function progressText(item, strings) {
  const values = {};
  for (const [name, value] of Object.entries(item)) values[name] = String(value).replace(".", strings.decimal_separator);
  let text = fillParts(strings.progress_text, values);
  if ("digits" in item) text += fillParts(strings.progress_accuracy, values);
  if (item.stopped) text += strings.progress_stopped;
  return text;
}

/** `template` filled with `values`, without the " · " parts whose placeholders have no value. */
function fillParts(template, values) {
  const complete = (part) => [...part.matchAll(/\{(\w+)\}/g)].every((match) => match[1] in values);
  return template.split(" · ").filter(complete).map((part) => format(part, values)).join(" · ");
}

/** {max, value} of the bar when `steps` and `step` are numbers (steps above 0); null for a bar with no end known. */
export function progressBar(item) {
  const finite = (value) => typeof value === "number" && Number.isFinite(value);
  if (!finite(item.steps) || item.steps <= 0 || !finite(item.step)) return null;
  return { max: item.steps, value: Math.min(Math.max(item.step, 0), item.steps) };
}
