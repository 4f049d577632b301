// Code shown highlighted by the build, turned into an editor on first edit, saved as the learner types.
import { fitsCode } from "./fits.js";
import { appendNote } from "./output.js";
import { OtherTab } from "./other-tab.js";
import { read, remove, save } from "./storage.js";

const SAVE_DELAY_MS = 300;
const CODE = ":scope > pre > code";
let keysSaid = false; // the editor's keys are said once per page, under the first editor opened

/**
 * How much of the window's edges the page covers, for the editor to keep its cursor clear: the fixed runtime bar
 * (style.css turns its height into the root's scroll-padding), plus `below` (the buttons under an editor).
 */
function coveredEdges(below) {
  const root = getComputedStyle(document.documentElement);
  const extra = below && !below.hidden ? below.getBoundingClientRect().height + 8 : 0;
  return { top: parseFloat(root.scrollPaddingTop) || 0, bottom: (parseFloat(root.scrollPaddingBottom) || 0) + extra };
}

/** The offset in `code`'s text of the character a click or tap landed on: 0 when it landed outside the text. */
function tappedOffset(code, event) {
  const point = document.caretPositionFromPoint ? document.caretPositionFromPoint(event.clientX, event.clientY)
    : document.caretRangeFromPoint && document.caretRangeFromPoint(event.clientX, event.clientY);
  if (!point) return 0;
  const node = point.offsetNode || point.startContainer;
  if (!code.contains(node)) return 0;
  const before = document.createRange();
  before.setStart(code, 0);
  before.setEnd(node, point.offset === undefined ? point.startOffset : point.offset);
  return before.toString().length;
}

export { fitsCode }; // cells read their saved edits with it

export class CodeArea extends EventTarget {
  /**
   * @param {Element} element   the .cell-code element the build wrote
   * @param {string} original   the lesson's code
   * @param {object} options    {page, storageKey, output (where notes go), onRun, below (buttons under the code)}
   */
  constructor(element, original, { page, storageKey, output, onRun, below = null }) {
    super();
    this.element = element;
    this.original = original;
    this.page = page;
    this.storageKey = storageKey;
    this.output = output;
    this.onRun = onRun;
    this.below = below;
    this.editor = null;
    this.restored = undefined;
    this.highlighted = element.querySelector(CODE).innerHTML;
    element.addEventListener("keydown", (event) => this.onKey(event));
    element.addEventListener("click", (event) => this.edit("", tappedOffset(element.querySelector(CODE), event)));
    this.restoreSaved();
    this.tabs = new OtherTab(storageKey, (text) => this.onOtherTab(text));
  }

  code() {
    if (this.editor) return this.editor.getCode();
    return this.restored === undefined ? this.original : this.restored;
  }

  edited() {
    return this.code() !== this.original;
  }

  onKey(event) {
    if (this.editor) return;
    if (event.key === "Enter" && event.shiftKey) {
      event.preventDefault();
      this.onRun();
    } else if (event.key === "Enter" || (event.key.length === 1 && !event.ctrlKey && !event.metaKey)) {
      event.preventDefault();
      this.edit(event.key.length === 1 ? event.key : "");
    }
  }

  /** Open the editor, `typed` inserted, its cursor at offset `at` of the code (where the learner tapped). */
  async edit(typed = "", at = 0) {
    if (this.editor || this.mounting) return;
    this.mounting = true;
    try {
      const module = await this.page.loadEditor();
      const pre = this.element.querySelector(":scope > pre");
      this.editor = module.mountEditor(this.element, this.code(), {
        label: this.element.getAttribute("aria-label"),
        onRun: () => this.onRun(),
        onChange: () => this.changed(),
        margins: () => coveredEdges(this.below),
        at,
      });
      pre.hidden = true;
      // The keys note only where a keyboard is likely: a touch screen with no finer pointer has none to press.
      if (!keysSaid && !matchMedia("(hover: none) and (pointer: coarse)").matches) {
        keysSaid = true;
        const keys = document.createElement("p");
        keys.className = "editor-keys";
        keys.textContent = this.page.strings.editor_keys;
        this.element.after(keys);
      }
      for (const name of ["tabindex", "role", "aria-readonly", "aria-label"]) this.element.removeAttribute(name);
      if (typed) this.editor.insert(typed);
      this.editor.focus();
    } catch (error) {
      const outdated = await this.page.outdated();
      appendNote(this.output, this.page.strings[outdated ? "course_updated" : "editor_failed"], "warning");
    } finally {
      this.mounting = false;
    }
  }

  /** Replace the code (the lesson's, a solution), in the editor or in the highlighted view. */
  setCode(code, highlighted = null) {
    this.restored = code === this.original ? undefined : code;
    if (this.editor) this.editor.setCode(code);
    else if (highlighted !== null) this.element.querySelector(CODE).innerHTML = highlighted;
    else this.element.querySelector(CODE).textContent = code;
    this.changed();
  }

  reset() {
    if (this.restoredNote) this.restoredNote.remove();
    this.setCode(this.original, this.highlighted);
  }

  changed() {
    this.dirty = true;
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
    this.dispatchEvent(new Event("change"));
  }

  /** Write the pending edit now (also called when the page is being left); nothing if nothing changed here. */
  flush() {
    clearTimeout(this.saveTimer);
    if (!this.dirty) return;
    this.dirty = false;
    const code = this.code();
    this.tabs.beforeWrite();
    if (code === this.original) remove(this.storageKey);
    else save(this.storageKey, { code, original: this.original });
    this.tabs.wrote();
  }

  /** The code an entry's text holds: the lesson's code when it is removed, null when it holds no edit. */
  codeOf(text) {
    if (text === null) return this.original;
    try {
      const value = JSON.parse(text);
      return fitsCode(value) ? value.code : null;
    } catch (error) {
      return null;
    }
  }

  /**
   * Another tab of the course saved this block's code: if it differs from what this tab shows, say so under the
   * code and offer to load the other tab's version or keep this one; the version not kept is set aside.
   */
  onOtherTab(text) {
    const theirs = this.codeOf(text);
    if (theirs === null || theirs === this.code()) {
      if (theirs !== null) this.tabs.agreed(text);
      else this.tabs.known = text;
      return;
    }
    const { other_tab: message, other_tab_take: take, other_tab_keep: keep } = this.page.strings;
    this.tabs.ask(this.element, { message, take, keep }, {
      take: () => this.takeOtherTab(),
      keep: () => { this.dirty = true; this.flush(); },
    });
  }

  /** Show the code the other tab saved; this tab's code is set aside first, so the export still holds it. */
  takeOtherTab() {
    const text = this.tabs.stored();
    const theirs = this.codeOf(text);
    if (theirs === null) return;
    const mine = this.code();
    if (mine !== this.original) this.tabs.setAside(JSON.stringify({ code: mine, original: this.original }));
    this.tabs.known = text;
    this.setCode(theirs);
    clearTimeout(this.saveTimer); // storage already holds this code
    this.dirty = false;
  }

  /** Show the learner's saved edit in place of the lesson's code, saying so; `setAside` says one did not fit. */
  restoreSaved() {
    const { value: saved, setAside } = read(this.storageKey, fitsCode);
    this.setAside = Boolean(setAside);
    if (!saved || saved.code === this.original) return;
    this.restored = saved.code;
    this.element.querySelector(CODE).textContent = saved.code;
    const outdated = saved.original !== this.original;
    this.restoredNote = appendNote(this.output, this.page.strings[outdated ? "restored_outdated" : "restored"],
      "restored");
    this.output.prepend(this.restoredNote);
  }
}
