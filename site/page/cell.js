// One runnable cell: its code area, its status and its output.
import { CodeArea, fitsCode } from "./code-area.js";
import { find } from "./find.js";
import { savedNotice } from "./notice.js";
import { appendNote } from "./output.js";
import { key, migrate } from "./storage.js";

const CONTENT = ".cell-code, .cell-output"; // the learner's code and what it printed

export class Cell {
  constructor(element, data, page) {
    this.element = element;
    this.id = data.id;
    this.page = page;
    this.lastRun = data.code; // the build-time output belongs to the lesson's code
    this.output = find(element, ".cell-output", CONTENT);
    this.status = find(element, ".cell-status", CONTENT);
    this.runButton = find(element, "[data-action=run]", CONTENT);
    this.resetButton = find(element, "[data-action=reset]", CONTENT);
    find(element, ".cell-actions", CONTENT).hidden = false;
    const storageKey = key(page.data.lesson, "cell", data.key);
    // An edit saved under the cell's position fits this cell only if it was made from this cell's code.
    const moved = migrate(key(page.data.lesson, "cell", this.id), storageKey,
      (saved) => fitsCode(saved) && saved.original === data.code);
    this.area = new CodeArea(find(element, ".cell-code", CONTENT), data.code, {
      page, storageKey, output: this.output, onRun: () => page.run([this]),
    });
    if (moved) savedNotice(element, page.strings[moved === "moved" ? "saved_migrated" : "saved_moved_aside"]);
    if (this.area.setAside) savedNotice(element, page.strings.saved_set_aside);
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
    const note = this.output.querySelector(":scope > .out-stale");
    if (stale && !note) this.output.prepend(appendNote(this.output, this.page.strings.stale, "stale"));
    else if (!stale && note) note.remove();
  }

  setStatus(key) {
    this.element.dataset.state = key || "";
    this.status.textContent = key ? this.page.strings[key] || "" : "";
    this.runButton.setAttribute("aria-busy", key === "running" ? "true" : "false");
  }

  /**
   * Called by the scheduler when it is this cell's turn; `replay` is the code to re-run after a restart.
   * `onBehalf` is true when the learner asked for a later cell and the page runs this one first: such a run must
   * reveal nothing the learner has not tried yet (an output folded until its quiz is answered stays folded).
   * data-run-by on the cell says who asked for its last run ("page" or "learner").
   */
  async execute(client, { onBehalf = false } = {}) {
    const code = this.code();
    this.element.dataset.runBy = onBehalf ? "page" : "learner";
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
