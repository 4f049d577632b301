// One runnable cell: its code area, its status and its output.
import { CodeArea } from "./code-area.js";
import { appendNote } from "./output.js";
import { key } from "./storage.js";

export class Cell {
  constructor(element, data, page) {
    this.element = element;
    this.id = data.id;
    this.page = page;
    this.lastRun = data.code; // the build-time output belongs to the lesson's code
    this.output = element.querySelector(".cell-output");
    this.status = element.querySelector(".cell-status");
    this.runButton = element.querySelector("[data-action=run]");
    this.resetButton = element.querySelector("[data-action=reset]");
    element.querySelector(".cell-actions").hidden = false;
    this.area = new CodeArea(element.querySelector(".cell-code"), data.code, {
      page, storageKey: key(page.data.lesson, "cell", this.id), output: this.output, onRun: () => page.run([this]),
    });
    this.area.addEventListener("change", () => this.changed());
    this.runButton.addEventListener("click", () => page.run([this]));
    this.resetButton.addEventListener("click", () => this.area.reset());
    this.resetButton.hidden = !this.area.edited();
    this.markStale(this.area.code() !== this.lastRun);
  }

  code() {
    return this.area.code();
  }

  flush() {
    this.area.flush();
  }

  changed() {
    this.resetButton.hidden = !this.area.edited();
    this.markStale(this.code() !== this.lastRun);
  }

  markStale(stale) {
    this.output.classList.toggle("stale", stale);
    const note = this.output.querySelector(".out-stale");
    if (stale && !note) this.output.prepend(appendNote(this.output, this.page.strings.stale, "stale"));
    else if (!stale && note) note.remove();
  }

  setStatus(key) {
    this.element.dataset.state = key || "";
    this.status.textContent = key ? this.page.strings[key] || "" : "";
    this.runButton.setAttribute("aria-busy", key === "running" ? "true" : "false");
  }

  /** Called by the scheduler when it is this cell's turn; `replay` is the code to re-run after a restart. */
  async execute(client) {
    const code = this.code();
    this.setStatus("running");
    this.output.replaceChildren();
    this.output.classList.remove("stale");
    this.output.dataset.origin = "live";
    const result = await client.run(this.id, code, (items) => this.page.showOutput(this.output, items));
    this.lastRun = code;
    this.changed();
    this.setStatus(result.stopped ? "" : result.ok ? "done" : "failed"); // Stop's note says what happened
    return { ok: result.ok, replay: result.ok ? code : null };
  }

  stopped() {
    this.setStatus("");
  }

  /** Add a note (restarted, stopped, warning) under the output; returns it so its text can change. */
  note(text, kind) {
    return appendNote(this.output, text, kind);
  }
}
