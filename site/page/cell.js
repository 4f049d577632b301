// One runnable cell: its code area, its status and its output, shown as its display tags say.
import { AnswerFold } from "./answer-fold.js";
import { CodeArea, fitsCode } from "./code-area.js";
import { find } from "./find.js";
import { savedNotice } from "./notice.js";
import { appendNote } from "./output.js";
import { key, migrate } from "./storage.js";


export class Cell {
  constructor(element, data, page) {
    this.element = element;
    this.id = data.id;
    this.name = data.name; // the learner's name for it, which its tracebacks carry ("<Celda 3>")
    this.page = page;
    this.tags = new Set(data.tags || []);
    this.raises = data.raises;
    this.hidden = this.tags.has("remove-cell"); // the lesson's bookkeeping: never shown, never named to the learner
    this.lessonCode = data.code;
    this.lastRun = data.code; // the build-time output belongs to the lesson's code
    this.skipRunAll = Boolean(data.skip_run_all); // a long cell runs only from its own Run
    this.output = find(element, ".cell-output");
    this.status = find(element, ".cell-status");
    this.runButton = find(element, "[data-action=run]");
    this.resetButton = find(element, "[data-action=reset]");
    const fold = find(element, "details[data-fold=answer]");
    this.answerFold = fold ? new AnswerFold(fold, data, page) : null;
    const codeElement = find(element, ".cell-code");
    // A cell whose code the lesson removed (remove-input, remove-cell) runs the lesson's code, from the page data.
    this.area = codeElement ? this.codeArea(codeElement, data, page) : null;
    if (!this.area) return;
    find(element, ".cell-actions").hidden = false;
    this.area.addEventListener("change", () => this.changed());
    this.runButton.addEventListener("click", () => page.run([this]));
    this.resetButton.addEventListener("click", () => this.area.reset());
    this.resetButton.hidden = !this.area.edited();
    this.markStale(this.area.code() !== this.lastRun);
  }

  /** The editable code of the cell, with the learner's saved edit (and a notice if one was moved or set aside). */
  codeArea(codeElement, data, page) {
    const storageKey = key(page.data.lesson, "cell", data.key);
    // An edit saved under the cell's position fits this cell only if it was made from this cell's code.
    const moved = migrate(key(page.data.lesson, "cell", this.id), storageKey,
      (saved) => fitsCode(saved) && saved.original === data.code);
    const area = new CodeArea(codeElement, data.code, {
      page, storageKey, output: this.output, onRun: () => page.run([this]),
    });
    if (moved) savedNotice(this.element, page.strings[moved === "moved" ? "saved_migrated" : "saved_moved_aside"]);
    if (area.setAside) savedNotice(this.element, page.strings.saved_set_aside);
    return area;
  }

  /** The visible cell this hidden one follows on the page (what it reads comes from there), or null. */
  get follows() {
    if (!this.hidden) return null;
    const cells = this.page.cells || [];
    const above = cells.slice(0, cells.indexOf(this)).filter((cell) => !cell.hidden);
    return above.length ? above[above.length - 1] : null;
  }

  code() {
    return this.area ? this.area.code() : this.lessonCode;
  }

  flush() {
    if (this.area) this.area.flush();
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
    if (!this.status) return;
    this.status.textContent = key ? this.page.strings[key] || "" : "";
    this.runButton.setAttribute("aria-busy", key === "running" ? "true" : "false");
  }

  /**
   * Called by the scheduler when it is this cell's turn; `replay` is the code to re-run after a restart.
   * `onBehalf`: the page runs the cell for the learner (Run all, or earlier cells first when the learner asked
   * for a later one), so it reveals nothing the learner has not tried yet: an answer-first output stays folded;
   * only the learner's own Run reveals it. data-run-by on the cell says who asked for its last run ("page" or
   * "learner").
   */
  async execute(client, { onBehalf = false, stopAsked = () => true } = {}) {
    if (this.answerFold && !onBehalf) this.answerFold.reveal("run");
    const code = this.code();
    this.element.dataset.runBy = onBehalf ? "page" : "learner";
    this.setStatus("running");
    this.output.replaceChildren();
    this.output.classList.remove("stale");
    this.output.dataset.origin = "live";
    this.lastRun = code; // the output shown from now on is this code's, even if Stop ends the worker under it
    const result = await client.run(this.name, code, (items) => this.page.showOutput(this.output, items));
    // A KeyboardInterrupt that no Stop asked for is the learner's own exception, shown as any other.
    const stopped = Boolean(result.stopped) && !(result.error && !stopAsked());
    if (result.stopped && !stopped) this.page.showOutput(this.output, [{ type: "error", text: result.error.text }]);
    if (this.area) this.changed();
    this.showRemoved(!result.ok && !stopped && !this.raises);
    this.setStatus(stopped ? "stopped" : result.ok ? "done" : "failed"); // Stop's note says how it stopped
    return { ok: result.ok, replay: result.ok ? code : null, stopped };
  }

  /**
   * A removed cell stays out of sight whatever it does (the learner can neither see nor fix it); a removed output
   * shows when its visible code raised unexpectedly: the learner must see why.
   */
  showRemoved(raised) {
    if (this.hidden) this.element.hidden = true;
    if (this.tags.has("remove-output")) this.output.hidden = !raised;
  }

  /** The cell's turn came but it did not run: an output still from the build says it is the lesson's recorded one. */
  notRun() {
    const built = [...this.output.children].some((child) => !child.classList.contains("out-note")); // not only notes
    if (this.hidden || this.output.dataset.origin === "live" || !built) return;
    if (!this.output.querySelector(":scope > .out-recorded")) {
      this.output.prepend(appendNote(this.output, this.page.strings.recorded_output, "recorded"));
    }
  }

  stopped() {
    this.setStatus("stopped");
  }

  /** Add a note (restarted, stopped, warning) under the output; returns it so its text can change. */
  note(text, kind) {
    return appendNote(this.output, text, kind);
  }
}
