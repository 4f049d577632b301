// Learner work saved in the browser, one key scheme for the whole course: course:v1:<lesson>:<kind>:<id>.
// The lesson slug and the block id are URI-encoded, so any folder name the build accepts (accents, spaces,
// colons) round-trips; slugs of plain ASCII letters, digits, "-", "_" and "." keep the keys saved before.
//
// The id is the block's stable key from the page data (data.key): an author's `:id:`, an exercise's id, or "~"
// and a hash of the block's source (code-cell, quiz); never its position. Work saved under the positional ids
// used before (cell:3, quiz:1) is moved once to the stable key when it still fits the block at that position,
// and set aside otherwise. An entry that does not fit its block is never thrown and never deleted: it is moved
// under the "set-aside" kind (see setAside), which the export of the learner's work includes, and comes back to
// its block when it fits again (takeBack). Every entry saved is stamped with its time, `at` (see save), which an
// import compares; a write the browser refuses is kept in memory until a later save succeeds.

const PREFIX = "course:v1:";
// "revealed": a cell's answer-first output the learner has seen (answer-fold.js), under the cell's key;
// "visit": that the learner opened the lesson page (id VISIT), whose time tells the index where they left off.
// "seed": the learner's seed for the order of the lesson's quiz options (shuffle.js), id SEED.
export const KINDS = ["cell", "quiz", "exercise", "exercise-code", "revealed", "set-aside", "visit", "seed"];
export const VISIT = "page";
export const SEED = "order";

/** A storage that holds nothing and refuses every write, as the browser's own does when it is full. */
const BLOCKED = {
  length: 0,
  key: () => null,
  getItem: () => null,
  setItem() { throw new DOMException("the browser blocks this site's storage", "SecurityError"); },
  removeItem() { throw new DOMException("the browser blocks this site's storage", "SecurityError"); },
};

/** The browser's localStorage, or BLOCKED where even reading `window.localStorage` throws (storage blocked). */
export function localStore() {
  try {
    return window.localStorage;
  } catch (error) {
    return BLOCKED;
  }
}

export function key(lesson, kind, id) {
  return PREFIX + encodeURIComponent(lesson) + ":" + kind + ":" + encodeURIComponent(String(id));
}

/** {lesson, kind, id} of one of our keys in its canonical form; null for anything else. */
export function parseKey(name) {
  if (!name.startsWith(PREFIX)) return null;
  const parts = name.slice(PREFIX.length).split(":");
  if (parts.length !== 3 || !KINDS.includes(parts[1]) || !parts[0] || !parts[2]) return null;
  let lesson;
  let id;
  try {
    lesson = decodeURIComponent(parts[0]);
    id = decodeURIComponent(parts[2]);
  } catch (error) {
    return null; // a malformed %-escape
  }
  return key(lesson, parts[1], id) === name ? { lesson, kind: parts[1], id } : null;
}

/** The names of every entry a lesson's blocks may hold, from {cell: [keys], quiz: [keys], exercise: [ids]}. */
export function blockNames(lesson, blocks) {
  const names = new Set([key(lesson, "visit", VISIT), key(lesson, "seed", SEED)]);
  for (const kind of ["cell", "quiz", "exercise"]) {
    for (const id of blocks[kind] || []) {
      names.add(key(lesson, kind, id));
      if (kind === "exercise") names.add(key(lesson, "exercise-code", id));
      if (kind === "cell") names.add(key(lesson, "revealed", id));
    }
  }
  return names;
}

/** The positional names work was saved under before blocks had stable keys (cell:1 … cell:n, quiz:1 …). */
export function legacyNames(lesson, blocks) {
  const names = new Set();
  for (const kind of ["cell", "quiz"]) {
    (blocks[kind] || []).forEach((_, index) => names.add(key(lesson, kind, index + 1)));
  }
  return names;
}

/**
 * The entry saved under `name` if `fits(value)` says it belongs to its block: {value}, or {value: null} when
 * nothing is saved. An entry that cannot be parsed or does not fit is set aside: {value: null, setAside: true}.
 */
export function read(name, fits, storage = localStore()) {
  let text;
  try {
    text = stored(name, storage);
  } catch (error) {
    return { value: null }; // storage disabled: behave as if nothing was saved
  }
  if (text === null) return takeBack(name, fits, storage);
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { value: null, setAside: setAside(name, "unreadable", storage) };
  }
  let ok = false;
  try {
    ok = fits(value) === true;
  } catch (error) {
    ok = false; // a check that trips on the shape is a mismatch too
  }
  return ok ? { value } : { value: null, setAside: setAside(name, "mismatch", storage) };
}

// Set-aside work that may come back to its block: it was set aside because the block was gone or the entry did
// not fit it then. Work set aside because newer work replaced it ("older") stays aside: it would undo a reset.
const RETURNABLE = ["no-block", "mismatch"];
let takenBack = 0;

/**
 * The newest set-aside entry of `name`'s kind and id that may come back and fits now (`fits`), moved back under
 * `name`: {value, takenBack: true}; {value: null} when there is none or it cannot be moved.
 */
export function takeBack(name, fits, storage = localStore()) {
  const parsed = parseKey(name);
  if (!parsed || parsed.kind === "set-aside") return { value: null };
  let best = null;
  try {
    for (let index = 0; index < storage.length; index += 1) {
      const aside = parseKey(storage.key(index));
      if (!aside || aside.lesson !== parsed.lesson || aside.kind !== "set-aside") continue;
      const record = parseRecord(storage.getItem(storage.key(index)));
      if (!record || record.kind !== parsed.kind || record.id !== parsed.id || !RETURNABLE.includes(record.reason)
          || !("value" in record) || !passes(fits, record.value)) continue;
      if (!best || String(record.at) > String(best.record.at)) best = { name: storage.key(index), record };
    }
    if (!best) return { value: null };
    storage.setItem(name, JSON.stringify(best.record.value));
    storage.removeItem(best.name);
  } catch (error) {
    return { value: null }; // storage disabled or full: the entry stays aside for a later visit
  }
  takenBack += 1;
  return { value: best.record.value, takenBack: true };
}

/** How many set-aside entries came back to their blocks since the last call (the page says so once). */
export function countTakenBack() {
  const n = takenBack;
  takenBack = 0;
  return n;
}

/** The set-aside record in `text`, or null when it is none. */
function parseRecord(text) {
  try {
    const record = JSON.parse(text);
    return isRecord(record) ? record : null;
  } catch (error) {
    return null;
  }
}

/** True when `fits(value)` says so; a check that trips on the shape says no. */
export function passes(fits, value) {
  try {
    return fits(value) === true;
  } catch (error) {
    return false;
  }
}

/**
 * Move the entry under `name` to course:v1:<lesson>:set-aside:<kind>:<id> (or <kind>:<id>~2 … when that is
 * taken) as {kind, id, reason, at, value} (or `text` for an entry that is not JSON), so that no learner text is
 * lost: it stays in the exported work. Returns true when it was moved; if it cannot be (storage full), the entry
 * is left where it is and the page ignores it until it is overwritten.
 */
export function setAside(name, reason, storage = localStore()) {
  const parsed = parseKey(name);
  if (!parsed || parsed.kind === "set-aside") return false;
  const record = asideRecord(parsed, reason, storage.getItem(name));
  try {
    storage.setItem(freeName(parsed.lesson, parsed.kind + ":" + parsed.id, storage), JSON.stringify(record));
    storage.removeItem(name);
    return true;
  } catch (error) {
    return false;
  }
}

/** What an entry of `parsed` ({kind, id}) is set aside as: {kind, id, reason, at} and its value, or its `text`. */
export function asideRecord(parsed, reason, text) {
  const record = { kind: parsed.kind, id: parsed.id, reason, at: new Date().toISOString() };
  try {
    record.value = JSON.parse(text);
  } catch (error) {
    record.text = text;
  }
  return record;
}

/** A set-aside name for `id` in `lesson` that holds nothing yet. */
export function freeName(lesson, id, storage = localStore(), taken = new Set()) {
  for (let n = 1; ; n += 1) {
    const name = key(lesson, "set-aside", n === 1 ? id : id + "~" + n);
    if (storage.getItem(name) === null && !taken.has(name)) return name;
  }
}

/**
 * Move work saved under a block's positional name to its stable name, once: "moved" when it fits the block
 * (`fits`), "set-aside" when it does not, null when there was nothing to move or the stable name holds work.
 */
export function migrate(oldName, newName, fits, storage = localStore()) {
  try {
    if (oldName === newName || storage.getItem(oldName) === null || storage.getItem(newName) !== null) return null;
    const { value, setAside: aside } = read(oldName, fits, storage);
    if (aside) return "set-aside";
    if (value === null) return null;
    storage.setItem(newName, JSON.stringify(value));
    storage.removeItem(oldName);
    return "moved";
  } catch (error) {
    return null; // storage disabled or full: the old entry stays for a later visit
  }
}

/** Set aside every entry of `lesson` that belongs to none of `names` (blocks it no longer has); how many. */
export function sweep(lesson, names, storage = localStore()) {
  const strays = [];
  try {
    for (let index = 0; index < storage.length; index += 1) {
      const name = storage.key(index);
      const parsed = parseKey(name);
      if (parsed && parsed.lesson === lesson && parsed.kind !== "set-aside" && !names.has(name)) strays.push(name);
    }
  } catch (error) {
    return 0;
  }
  return strays.filter((name) => setAside(name, "no-block", storage)).length;
}

/** True for a plain object (not null, not an array). */
export function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// What the browser refused to keep (storage full, blocked, private mode): name → value, or null for a removal.
// It is written again before every later save, read back in place of storage, and exported with the rest.
const unsaved = new Map();
let onUnsaved = () => {};

/** Call `callback` each time a write fails (the page shows one notice); replaces any earlier callback. */
export function whenUnsaved(callback) {
  onUnsaved = callback;
}

/** The entries only the page's memory holds, {name: value}, with removals as null. */
export function unsavedEntries() {
  return Object.fromEntries(unsaved);
}

/** When `value` was saved (its `at` stamp), in ms; an entry without a readable time counts as older than any other. */
export function savedAt(value) {
  const at = isRecord(value) && typeof value.at === "string" ? Date.parse(value.at) : NaN;
  return Number.isNaN(at) ? -Infinity : at;
}

/** The saved value of `name` as text, from memory when the browser refused it; null when there is none. */
function stored(name, storage) {
  if (unsaved.has(name)) return unsaved.get(name) === null ? null : JSON.stringify(unsaved.get(name));
  return storage.getItem(name);
}

export function load(name, storage = localStore()) {
  try {
    const text = stored(name, storage);
    return text === null ? null : JSON.parse(text);
  } catch (error) {
    return null; // storage disabled or an unreadable entry: behave as if nothing was saved
  }
}

/**
 * Save `value` under `name`, stamped with the time it was made (`at`, which an import compares), for every
 * kind of entry alike. Writes whatever an earlier save could not keep first; true when nothing is left unsaved.
 */
export function save(name, value, storage = localStore()) {
  unsaved.delete(name); // a fresh value goes last, after the older ones it may depend on
  unsaved.set(name, isRecord(value) ? { ...value, at: new Date().toISOString() } : value);
  return retry(storage);
}

/** Save `value` under `name` as it is, keeping its own `at`: the same work in another form (quiz.js). */
export function resave(name, value, storage = localStore()) {
  unsaved.delete(name);
  unsaved.set(name, value);
  return retry(storage);
}

/**
 * Note that the learner opened the lesson page `lesson` now (the index reads where they left off). Unlike save,
 * a browser that refuses it is not worth a word: nothing the learner made is at stake.
 */
export function markVisit(lesson, storage = localStore()) {
  try {
    storage.setItem(key(lesson, "visit", VISIT), JSON.stringify({ opened: true, at: new Date().toISOString() }));
  } catch (error) {
    // storage full or blocked: the index then does not say where the learner left off
  }
}

export function remove(name, storage = localStore()) {
  unsaved.delete(name);
  unsaved.set(name, null);
  retry(storage);
}

/** Write the entries memory holds, oldest first, until one fails; true when all are written. */
function retry(storage) {
  try {
    for (const [name, value] of unsaved) {
      if (value === null) storage.removeItem(name);
      else storage.setItem(name, JSON.stringify(value));
      unsaved.delete(name);
    }
    return true;
  } catch (error) {
    onUnsaved(error);
    return false;
  }
}
