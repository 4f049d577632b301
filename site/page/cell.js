// One runnable cell: its code (highlighted, then the editor on first edit), its status and its output.
import { appendNote } from "./output.js";
import { key, load, remove, save } from "./storage.js";

const SAVE_DELAY_MS = 300;

export class Cell {
  constructor(element, data, page) {
    this.element = element;
    this.id = data.id;
    this.original = data.code;
    this.lastRun = data.code; // the build-time output belongs to the lesson's code
    this.page = page;
    this.editor = null;
    this.codeArea = element.querySelector(".cell-code");
    this.output = element.querySelector(".cell-output");
    this.status = element.querySelector(".cell-status");
    this.runButton = element.querySelector("[data-action=run]");
    this.resetButton = element.querySelector("[data-action=reset]");
    element.querySelector(".cell-actions").hidden = false;
    this.storageKey = key(page.data.lesson, "cell", this.id);
    this.highlighted = this.codeArea.querySelector("code").innerHTML;
    this.restoreSaved();
    this.runButton.addEventListener("click", () => page.run([this]));
    this.resetButton.addEventListener("click", () => this.reset());
    this.codeArea.addEventListener("keydown", (event) => this.onKey(event));
    this.codeArea.addEventListener("click", () => this.edit());
  }

  code() {
    if (this.editor) return this.editor.getCode();
    return this.restored === undefined ? this.original : this.restored;
  }

  /** Show the learner's saved edit in place of the lesson's code, saying so. */
  restoreSaved() {
    const saved = load(this.storageKey);
    if (!saved || typeof saved.code !== "string" || saved.code === this.original) return;
    this.restored = saved.code;
    this.codeArea.querySelector("code").textContent = saved.code;
    this.resetButton.hidden = false;
    const outdated = saved.original !== this.original;
    this.restoredNote = appendNote(this.output, this.page.strings[outdated ? "restored_outdated" : "restored"],
      "restored");
    this.output.prepend(this.restoredNote);
    this.markStale(true);
  }

  persist() {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
  }

  /** Write the pending edit now (also called when the page is being left). */
  flush() {
    clearTimeout(this.saveTimer);
    const code = this.code();
    if (code === this.original) remove(this.storageKey);
    else save(this.storageKey, { code, original: this.original });
  }

  onKey(event) {
    if (this.editor) return;
    if (event.key === "Enter" && event.shiftKey) {
      event.preventDefault();
      this.page.run([this]);
    } else if (event.key === "Enter" || (event.key.length === 1 && !event.ctrlKey && !event.metaKey)) {
      event.preventDefault();
      this.edit(event.key.length === 1 ? event.key : "");
    }
  }

  async edit(typed = "") {
    if (this.editor || this.mounting) return;
    this.mounting = true;
    try {
      const module = await this.page.loadEditor();
      const pre = this.codeArea.querySelector("pre");
      this.editor = module.mountEditor(this.codeArea, this.code(), {
        label: this.codeArea.getAttribute("aria-label"),
        onRun: () => this.page.run([this]),
        onChange: () => this.changed(),
      });
      pre.hidden = true;
      this.codeArea.removeAttribute("tabindex");
      this.codeArea.removeAttribute("role");
      this.codeArea.removeAttribute("aria-readonly");
      this.codeArea.removeAttribute("aria-label");
      if (typed) this.editor.insert(typed);
      this.editor.focus();
    } catch (error) {
      appendNote(this.output, this.page.strings.editor_failed, "warning");
    } finally {
      this.mounting = false;
    }
  }

  changed() {
    this.persist();
    const edited = this.code() !== this.original;
    this.resetButton.hidden = !edited;
    this.markStale(this.code() !== this.lastRun);
  }

  markStale(stale) {
    this.output.classList.toggle("stale", stale);
    const note = this.output.querySelector(".out-stale");
    if (stale && !note) {
      this.output.prepend(appendNote(this.output, this.page.strings.stale, "stale"));
    } else if (!stale && note) {
      note.remove();
    }
  }

  reset() {
    this.restored = undefined;
    if (this.editor) this.editor.setCode(this.original);
    else this.codeArea.querySelector("code").innerHTML = this.highlighted;
    if (this.restoredNote) this.restoredNote.remove();
    this.changed();
  }

  setStatus(key) {
    this.element.dataset.state = key || "";
    this.status.textContent = key ? this.page.strings[key] || "" : "";
    this.runButton.setAttribute("aria-busy", key === "running" ? "true" : "false");
  }

  clearOutput() {
    this.output.replaceChildren();
    this.output.classList.remove("stale");
    this.output.dataset.origin = "live";
  }
}
