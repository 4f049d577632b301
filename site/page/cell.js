// One runnable cell: its code (highlighted, then the editor on first edit), its status and its output.
import { appendNote } from "./output.js";

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
    this.runButton.addEventListener("click", () => page.run([this]));
    this.resetButton.addEventListener("click", () => this.reset());
    this.codeArea.addEventListener("keydown", (event) => this.onKey(event));
    this.codeArea.addEventListener("click", () => this.edit());
  }

  code() {
    return this.editor ? this.editor.getCode() : this.original;
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
      this.editor = module.mountEditor(this.codeArea, this.original, {
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
    if (this.editor) this.editor.setCode(this.original);
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
