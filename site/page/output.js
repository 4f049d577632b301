// A cell's output region: the same structure the build writes, built with text nodes only.
import { progressBar, progressText } from "./progress.js";
import { sanitize } from "./sanitize.js";
import { format } from "./strings.js";

export function appendItems(region, items, strings) {
  for (const item of items) {
    if (item.type === "stream" || item.type === "error") {
      const name = item.type === "error" ? "error" : item.name;
      const last = region.lastElementChild;
      if (item.type === "stream" && last && last.classList.contains("out-" + name)) {
        last.append(item.text);
      } else {
        const pre = document.createElement("pre");
        pre.className = "out out-" + name;
        pre.textContent = item.text;
        region.append(pre);
        if (item.type === "error" && item.explanation) appendExplanation(region, item.explanation);
      }
    } else if (item.type === "display") {
      const box = document.createElement("div");
      box.className = "out out-display";
      box.append(sanitize(item.data));
      for (const label of box.querySelectorAll("summary.figure-table-label")) label.textContent = strings.table_alternative;
      region.append(box);
    } else if (item.type === "progress") {
      showProgress(region, item, strings);
    } else if (item.type === "truncated") {
      appendNote(region, format(strings.truncated, { lines: item.lines }));
    }
  }
}

/** Draw (or update in place) a cell's progress bar; site/... code_cell.progress_text writes the same text. */
function showProgress(region, item, strings) {
  let box = region.querySelector(".out-progress");
  if (!box) {
    box = document.createElement("div");
    box.className = "out out-progress";
    box.append(document.createElement("progress"), " ", document.createElement("span"));
    box.lastChild.className = "progress-text";
    region.append(box);
  }
  const bar = box.querySelector("progress");
  const position = progressBar(item);
  if (position) Object.assign(bar, position);
  else bar.removeAttribute("value"); // no end known: a bar that says only "working"
  box.querySelector(".progress-text").textContent = progressText(item, strings);
}

/** The sentences under a traceback that explain it (course.explain); the build writes the same element. */
function appendExplanation(region, text) {
  const explanation = document.createElement("p");
  explanation.className = "out out-explain";
  // `name` in the sentences is code: every other piece between backticks is shown as code, as text nodes only.
  text.split("`").forEach((piece, index) => {
    if (index % 2 === 0) explanation.append(piece);
    else explanation.append(Object.assign(document.createElement("code"), { textContent: piece }));
  });
  region.append(explanation);
}

export function appendNote(region, text, kind = "") {
  const note = document.createElement("p");
  note.className = "out out-note" + (kind ? " out-" + kind : "");
  note.textContent = text;
  region.append(note);
  return note;
}

