// A cell's output region: the same structure the build writes, built with text nodes only.
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
      }
    } else if (item.type === "truncated") {
      appendNote(region, format(strings.truncated, { lines: item.lines }));
    }
  }
}

export function appendNote(region, text, kind = "") {
  const note = document.createElement("p");
  note.className = "out out-note" + (kind ? " out-" + kind : "");
  note.textContent = text;
  region.append(note);
  return note;
}

/** The output as text, the way tests and the build compare it. */
export function outputText(region) {
  return Array.from(region.querySelectorAll("pre.out")).map((pre) => pre.textContent).join("");
}
