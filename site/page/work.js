// Export all the learner's work in the course as a versioned JSON receipt, and bring one back: all of
// it or nothing, checked against the course's own lessons and blocks, with a report that says exactly what happened.
import { asideRecord, blockNames, freeName, legacyNames, parseKey } from "./storage.js";
import { format } from "./strings.js";

const FORMAT = "attention-course-work";
const VERSION = 1;

/**
 * The receipt of every saved entry of this course. An entry a receipt cannot hold as it is (not JSON, or JSON
 * that is no object) goes in set aside, as the lesson page would set it aside when it reads it, so nothing the
 * learner saved is left out and the receipt imports back.
 */
export function collect(storage = window.localStorage) {
  const names = [];
  for (let index = 0; index < storage.length; index += 1) {
    if (parseKey(storage.key(index))) names.push(storage.key(index));
  }
  const entries = {};
  const taken = new Set(names);
  for (const name of names) {
    const text = storage.getItem(name);
    const value = parseJSON(text);
    if (isEntry(value)) {
      entries[name] = value;
      continue;
    }
    const parsed = parseKey(name);
    const free = freeName(parsed.lesson, parsed.kind + ":" + parsed.id, storage, taken);
    taken.add(free);
    entries[free] = asideRecord(parsed, value === undefined ? "unreadable" : "mismatch", text);
  }
  return { format: FORMAT, version: VERSION, exported: new Date().toISOString(), entries };
}

/** The value `text` holds, or undefined when it is not JSON. */
function parseJSON(text) {
  try {
    return JSON.parse(text);
  } catch (error) {
    return undefined;
  }
}

/** True for what a receipt's entry may be: a JSON object or array. */
function isEntry(value) {
  return typeof value === "object" && value !== null;
}

/**
 * The receipt's entries if it is one of ours and every entry belongs to one of `lessons` (the course's slugs);
 * otherwise throws an Error whose message says what is wrong.
 */
export function validate(text, strings, lessons) {
  let receipt;
  try {
    receipt = JSON.parse(text);
  } catch (error) {
    throw new Error(strings.import_not_json);
  }
  if (!receipt || receipt.format !== FORMAT || typeof receipt.entries !== "object" || receipt.entries === null) {
    throw new Error(strings.import_foreign);
  }
  if (receipt.version !== VERSION) throw new Error(format(strings.import_version, { version: receipt.version }));
  const unknown = new Set();
  for (const [name, value] of Object.entries(receipt.entries)) {
    const parsed = parseKey(name);
    if (!parsed || !isEntry(value)) {
      throw new Error(format(strings.import_bad_entry, { name }));
    }
    if (!lessons.includes(parsed.lesson)) unknown.add(parsed.lesson);
  }
  if (unknown.size) throw new Error(format(strings.import_unknown_lessons, { lessons: [...unknown].sort().join(", ") }));
  return receipt.entries;
}

/**
 * The entries to write, with those for blocks the course no longer has moved under "set-aside" names (as the
 * lesson page itself would set them aside), and how many were. `blocks` is the index's {lesson: {cell: [keys],
 * quiz: [keys], exercise: [ids]}}; entries under the positional names of older receipts (cell:3) are kept for
 * the lesson page to move to their blocks, and a lesson the index lists no blocks for is taken as it is.
 */
export function setAsideUnknown(entries, blocks, storage = window.localStorage) {
  const kept = {};
  const taken = new Set(Object.keys(entries));
  let aside = 0;
  for (const [name, value] of Object.entries(entries)) {
    const parsed = parseKey(name);
    const lesson = blocks && parsed && blocks[parsed.lesson];
    if (!lesson || parsed.kind === "set-aside" || blockNames(parsed.lesson, lesson).has(name)
        || legacyNames(parsed.lesson, lesson).has(name)) {
      kept[name] = value;
      continue;
    }
    const free = freeName(parsed.lesson, parsed.kind + ":" + parsed.id, storage, taken);
    taken.add(free);
    kept[free] = { kind: parsed.kind, id: parsed.id, reason: "no-block", at: new Date().toISOString(), value };
    aside += 1;
  }
  return { entries: kept, aside };
}

/**
 * Write every entry or none: if one does not fit, put back what was there and rethrow the error with
 * `written` (how many had fitted) and `total`. Returns how many were written.
 */
export function writeAll(entries, storage = window.localStorage) {
  const names = Object.keys(entries);
  const previous = names.map((name) => storage.getItem(name));
  let written = 0;
  try {
    for (const name of names) {
      storage.setItem(name, JSON.stringify(entries[name]));
      written += 1;
    }
  } catch (error) {
    // Remove first, then restore: the old values took no more room than the new ones that were written.
    const touched = names.slice(0, written + 1);
    for (const name of touched) storage.removeItem(name);
    touched.forEach((name, index) => { if (previous[index] !== null) storage.setItem(name, previous[index]); });
    Object.assign(error, { written, total: names.length });
    throw error;
  }
  return written;
}

export class WorkControl {
  constructor(element, page) {
    this.element = element;
    this.strings = page.strings;
    this.lessons = page.data.lessons;
    this.blocks = page.data.blocks;
    this.status = element.querySelector(".work-status");
    element.querySelector(".work-actions").hidden = false;
    element.querySelector("[data-action=export]").addEventListener("click", () => this.exportWork());
    element.querySelector("input[type=file]").addEventListener("change", (event) => this.importWork(event.target));
  }

  exportWork() {
    const receipt = collect();
    const blob = new Blob([JSON.stringify(receipt, null, 2)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "attention-course-work.json";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    const n = Object.keys(receipt.entries).length;
    this.status.textContent = format(this.strings.export_done, { n });
  }

  async importWork(input) {
    const file = input.files && input.files[0];
    if (!file) return;
    try {
      const { entries, aside } = setAsideUnknown(validate(await file.text(), this.strings, this.lessons), this.blocks);
      const n = writeAll(entries);
      this.element.dataset.state = "imported";
      this.status.textContent = format(this.strings[aside ? "import_done_set_aside" : "import_done"], { n, aside });
    } catch (error) {
      this.element.dataset.state = "refused";
      const reason = error.name === "QuotaExceededError"
        ? format(this.strings.import_quota, { written: error.written, n: error.total }) : error.message;
      this.status.textContent = format(this.strings.import_refused, { reason });
    } finally {
      input.value = "";
    }
  }
}
