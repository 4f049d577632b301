// Export all the learner's work in the course as a versioned JSON receipt, and bring one back: all of it or
// nothing, each entry checked against its block and merged with the learner's (the newer kept, the other set
// aside, nothing dropped), with a report per lesson that says exactly what happened.
import { fitsCode, fitsExercise, fitsQuiz, fitsReveal, fitsSeed, fitsVisit } from "./fits.js";
import { asideRecord, blockNames, freeName, isRecord, legacyNames, localStore, parseKey, passes, savedAt,
  unsavedEntries } from "./storage.js";
import { format } from "./strings.js";

const FORMAT = "attention-course-work";
const VERSION = 1;

/**
 * The receipt of every saved entry of this course, with what only the page's memory holds (`memory`, from
 * storage.unsavedEntries: work the browser refused to keep) in place of what storage has. An entry a receipt cannot hold as it is (not JSON, or JSON
 * that is no object) goes in set aside, as the lesson page would set it aside when it reads it, so nothing the
 * learner saved is left out and the receipt imports back.
 */
export function collect(storage = localStore(), memory = unsavedEntries()) {
  const names = new Set();
  for (let index = 0; index < storage.length; index += 1) {
    if (parseKey(storage.key(index))) names.add(storage.key(index));
  }
  for (const name of Object.keys(memory)) {
    if (memory[name] === null) names.delete(name);
    else names.add(name);
  }
  const entries = {};
  const taken = new Set(names);
  for (const name of names) {
    const text = name in memory ? JSON.stringify(memory[name]) : storage.getItem(name);
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
  if (receipt.version !== VERSION) {
    // As JSON: a version "1" (text) is named with its quotes, not as the 1 this course reads.
    const version = JSON.stringify(receipt.version === undefined ? null : receipt.version);
    throw new Error(format(strings.import_version, { version }));
  }
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

/** The check an entry of `parsed` must pass: the shape its block can show, from the index's data. */
function fitsFor(parsed, blocks, shapes) {
  switch (parsed.kind) {
    case "cell":
    case "exercise-code": return fitsCode;
    case "exercise": return fitsExercise;
    case "revealed": return fitsReveal;
    case "visit": return fitsVisit;
    case "seed": return fitsSeed;
    case "quiz": {
      // A positional name (quiz:2, from an older receipt) belongs to the quiz at that place.
      const quizKey = /^[1-9][0-9]*$/.test(parsed.id) && blocks ? blocks.quiz[Number(parsed.id) - 1] : parsed.id;
      const shape = shapes && shapes.quiz && shapes.quiz[quizKey];
      return shape ? (value) => fitsQuiz(shape, value) : isEntry;
    }
    case "set-aside": return isRecord;
    default: return isEntry; // a kind whose blocks the index does not describe
  }
}

/**
 * Merge a receipt's entries into the learner's work, losing nothing: {writes, report}. `course` is the index's
 * {blocks: {lesson: {cell, quiz, exercise: [keys]}}, shapes: {lesson: {quiz: {key: {kind, options}}}}}.
 * Each entry is checked against its block first. Where the learner has an entry already, the newer (`at`) is
 * kept and, on a tie, the learner's; the other is set aside, as is an entry that fits no block of the course.
 * The report counts per lesson what happened to each imported entry: added (nothing was there), replaced (it
 * was newer, or what was there did not fit), kept (the learner's was newer or the same), aside (it fits no block).
 */
export function merge(entries, course, storage = localStore()) {
  const writes = {};
  const report = {};
  const taken = new Set(Object.keys(entries));
  const now = new Date().toISOString();
  /** Put `record` under a free set-aside name for `parsed` (a set-aside entry keeps the id it has). */
  const putAside = (parsed, record) => {
    const id = parsed.kind === "set-aside" ? parsed.id : parsed.kind + ":" + parsed.id;
    const free = freeName(parsed.lesson, id, storage, taken);
    taken.add(free);
    writes[free] = record;
  };
  for (const name of Object.keys(entries).sort()) {
    const value = entries[name];
    const parsed = parseKey(name);
    const counts = report[parsed.lesson] || (report[parsed.lesson] = { added: 0, replaced: 0, kept: 0, aside: 0 });
    const blocks = course.blocks && course.blocks[parsed.lesson];
    const local = storage.getItem(name);
    const known = !blocks || blockNames(parsed.lesson, blocks).has(name) || legacyNames(parsed.lesson, blocks).has(name);
    const fits = fitsFor(parsed, blocks, course.shapes && course.shapes[parsed.lesson]);
    let outcome;
    if (local === JSON.stringify(value)) {
      outcome = "kept";
    } else if (parsed.kind === "set-aside") { // set-aside work is never overwritten: it takes a free name
      if (local === null) writes[name] = value;
      else putAside(parsed, value);
      outcome = "aside";
    } else if (!known || !passes(fits, value)) {
      putAside(parsed, { kind: parsed.kind, id: parsed.id, reason: known ? "mismatch" : "no-block", at: now, value });
      outcome = "aside";
    } else if (local === null) {
      writes[name] = value;
      outcome = "added";
    } else {
      const mine = parseJSON(local);
      const mineFits = mine !== undefined && passes(fits, mine);
      // The newer wins, but of two seeds the older: the order drawn from it is the one the learner has seen longer.
      const newer = parsed.kind === "seed" ? savedAt(value) < savedAt(mine) : savedAt(value) > savedAt(mine);
      if (!mineFits || newer) {
        putAside(parsed, asideRecord(parsed, mineFits ? "older" : "mismatch", local));
        writes[name] = value;
        outcome = "replaced";
      } else {
        putAside(parsed, { kind: parsed.kind, id: parsed.id, reason: "older", at: now, value });
        outcome = "kept";
      }
    }
    counts[outcome] += 1;
  }
  return { writes, report };
}

/**
 * Write every entry or none: if one does not fit, put back what was there and rethrow the error with
 * `written` (how many had fitted), `total`, and `tooBig`: true when the entries need more room than everything
 * else storage holds (so the receipt itself is too large, and "storage full" would mislead). Returns how many were
 * written.
 */
export function writeAll(entries, storage = localStore()) {
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
    const size = names.reduce((sum, name) => sum + name.length + JSON.stringify(entries[name]).length, 0);
    Object.assign(error, { written, total: names.length, tooBig: size > used(storage) });
    throw error;
  }
  return written;
}

/**
 * The import's report in words: how many items the file held and how many of them were added or replaced (or
 * that none was), then per lesson what was added, replaced, kept and set aside.
 */
export function describeImport(report, n, strings) {
  const lessons = Object.keys(report).sort().map((lesson) => format(strings.import_lesson, { lesson, ...report[lesson] }));
  const taken = Object.values(report).reduce((sum, counts) => sum + counts.added + counts.replaced, 0);
  const total = format(taken ? strings.import_done : strings.import_done_none, { n, taken });
  return [total, ...lessons, strings.import_explained].join(" ");
}

/** Offer `receipt` to the learner as a file download. */
export function download(receipt) {
  const blob = new Blob([JSON.stringify(receipt, null, 2)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "attention-course-work.json";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** How many characters storage holds, names and values. */
function used(storage) {
  let total = 0;
  for (let index = 0; index < storage.length; index += 1) {
    const name = storage.key(index);
    total += name.length + (storage.getItem(name) || "").length;
  }
  return total;
}

/** Why an import was refused, in words: the error's own message, or what did not fit in storage. */
function refusal(error, strings) {
  if (error.name !== "QuotaExceededError") return error.message;
  return format(strings[error.tooBig ? "import_too_big" : "import_quota"], { written: error.written, n: error.total });
}

export class WorkControl {
  constructor(element, page) {
    this.element = element;
    this.strings = page.strings;
    this.lessons = page.data.lessons;
    this.course = { blocks: page.data.blocks, shapes: page.data.shapes };
    this.status = element.querySelector(".work-status");
    element.querySelector(".work-actions").hidden = false;
    element.querySelector("[data-action=export]").addEventListener("click", () => this.exportWork());
    element.querySelector("input[type=file]").addEventListener("change", (event) => this.importWork(event.target));
  }

  exportWork() {
    const receipt = collect();
    download(receipt);
    const n = Object.keys(receipt.entries).length;
    this.status.textContent = format(this.strings.export_done, { n });
  }

  async importWork(input) {
    const file = input.files && input.files[0];
    if (!file) return;
    try {
      const entries = validate(await file.text(), this.strings, this.lessons);
      const { writes, report } = merge(entries, this.course);
      writeAll(writes);
      this.element.dataset.state = "imported";
      this.status.textContent = describeImport(report, Object.keys(entries).length, this.strings);
    } catch (error) {
      this.element.dataset.state = "refused";
      this.status.textContent = format(this.strings.import_refused, { reason: refusal(error, this.strings) });
    } finally {
      input.value = "";
    }
  }
}
