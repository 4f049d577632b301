// Import and export of saved work, on a storage object that behaves like localStorage (node --test).
import assert from "node:assert/strict";
import { test } from "node:test";

import { collect, describeImport, merge, validate, writeAll } from "../../site/page/work.js";

/** A localStorage with a quota in characters, which throws QuotaExceededError like a browser. */
class FakeStorage {
  constructor(quota = Infinity) {
    this.items = new Map();
    this.quota = quota;
  }

  get length() { return this.items.size; }

  key(index) { return [...this.items.keys()][index]; }

  getItem(name) { return this.items.has(name) ? this.items.get(name) : null; }

  setItem(name, value) {
    const used = [...this.items].reduce((sum, [k, v]) => sum + (k === name ? 0 : k.length + v.length), 0);
    if (used + name.length + value.length > this.quota) {
      throw Object.assign(new Error("exceeded the quota"), { name: "QuotaExceededError" });
    }
    this.items.set(name, String(value));
  }

  removeItem(name) { this.items.delete(name); }
}

const STRINGS = {
  import_bad_entry: "unknown entry ({name})",
  import_foreign: "foreign",
  import_not_json: "not json",
  import_unknown_lessons: "no such lessons: {lessons}",
  import_version: "version {version}",
};

function receipt(entries) {
  return JSON.stringify({ format: "attention-course-work", version: 1, entries });
}

test("an import that does not fit leaves every entry as it was", () => {
  const storage = new FakeStorage(200);
  storage.setItem("course:v1:a:cell:1", '{"code":"before"}');
  const before = new Map(storage.items);
  const entries = { "course:v1:a:cell:1": { code: "after" }, "course:v1:a:cell:2": { code: "x".repeat(150) } };
  assert.throws(() => writeAll(entries, storage), (error) => error.written === 1 && error.total === 2);
  assert.deepEqual(storage.items, before);
});

test("a receipt larger than the storage is told apart from a storage full of other work", () => {
  const empty = new FakeStorage(100);
  assert.throws(() => writeAll({ "course:v1:a:cell:1": { code: "x".repeat(150) } }, empty),
    (error) => error.tooBig === true && error.written === 0);
  const full = new FakeStorage(100);
  full.setItem("someone-else", "y".repeat(70));
  assert.throws(() => writeAll({ "course:v1:a:cell:1": { code: "x".repeat(20) } }, full),
    (error) => error.tooBig === false && error.written === 0);
});

test("a receipt whose version is the text \"1\" is named as text, not as the number it looks like", () => {
  const text = JSON.stringify({ format: "attention-course-work", version: "1", entries: {} });
  assert.throws(() => validate(text, STRINGS, ["a"]), { message: 'version "1"' });
});

test("an import that fits writes every entry", () => {
  const storage = new FakeStorage();
  assert.equal(writeAll({ "course:v1:a:cell:1": { code: "1" }, "course:v1:a:quiz:2": { answer: 0 } }, storage), 2);
  assert.equal(storage.getItem("course:v1:a:quiz:2"), '{"answer":0}');
});

test("a receipt is checked against the course's lessons and names every one it lacks", () => {
  const entries = { "course:v1:a:cell:1": {}, "course:v1:gone:cell:1": {}, "course:v1:otra%20lecci%C3%B3n:quiz:1": {} };
  assert.throws(() => validate(receipt(entries), STRINGS, ["a"]), { message: "no such lessons: gone, otra lección" });
  assert.deepEqual(validate(receipt(entries), STRINGS, ["a", "gone", "otra lección"]), entries);
  assert.throws(() => validate(receipt({ "course:v1:a:answer:1": {} }), STRINGS, ["a"]),
    { message: "unknown entry (course:v1:a:answer:1)" });
});

test("export takes every course entry: one a receipt cannot hold as it is goes in set aside, and imports back", () => {
  const storage = new FakeStorage();
  storage.setItem("course:v1:03%20atenci%C3%B3n:cell:1", '{"code":"mine"}');
  storage.setItem("course:v1:a:cell:2", "{broken");
  storage.setItem("course:v1:a:exercise-code:ex", '"just a string"');
  storage.setItem("course:v1:a:set-aside:cell%3A2", '{"kind":"cell","id":"2","value":{"code":"older"}}');
  storage.setItem("someone-else", "{}");
  const exported = collect(storage);
  assert.deepEqual(Object.keys(exported.entries).sort(), ["course:v1:03%20atenci%C3%B3n:cell:1",
    "course:v1:a:set-aside:cell%3A2", "course:v1:a:set-aside:cell%3A2~2", "course:v1:a:set-aside:exercise-code%3Aex"]);
  assert.deepEqual(exported.entries["course:v1:03%20atenci%C3%B3n:cell:1"], { code: "mine" });
  const broken = exported.entries["course:v1:a:set-aside:cell%3A2~2"];
  assert.deepEqual([broken.kind, broken.id, broken.reason, broken.text], ["cell", "2", "unreadable", "{broken"]);
  assert.equal(exported.entries["course:v1:a:set-aside:exercise-code%3Aex"].value, "just a string");
  const back = validate(JSON.stringify(exported), STRINGS, ["a", "03 atención"]);
  assert.deepEqual(back, exported.entries);
});

const COURSE = {
  blocks: { a: { cell: ["~c"], quiz: ["q"], exercise: ["ex"] } },
  shapes: { a: { quiz: { q: { kind: "single", options: ["o0", "o1", "o2"] } } } },
};
const QUIZ = "course:v1:a:quiz:q";
const CELL = "course:v1:a:cell:~c";
const EARLY = "2026-01-01T10:00:00.000Z";
const LATE = "2026-01-02T10:00:00.000Z";

/** Merge `entries` into `storage` as the index does, and return the report. */
function importInto(storage, entries) {
  const { writes, report } = merge(entries, COURSE, storage);
  writeAll(writes, storage);
  return report;
}

/** The set-aside records of lesson "a", by name, parsed. */
function asideRecords(storage) {
  return Object.fromEntries([...storage.items].filter(([name]) => name.startsWith("course:v1:a:set-aside:"))
    .map(([name, text]) => [name, JSON.parse(text)]));
}

test("a wrong-shaped imported entry never replaces a right answer: the answer stays, the entry is set aside", () => {
  const storage = new FakeStorage();
  storage.setItem(QUIZ, JSON.stringify({ answer: 1, checked: true, state: "right", at: EARLY }));
  const report = importInto(storage, { [QUIZ]: { answer: 7, checked: true, at: LATE } });
  assert.deepEqual(JSON.parse(storage.getItem(QUIZ)).answer, 1);
  assert.deepEqual(report, { a: { added: 0, replaced: 0, kept: 0, aside: 1 } });
  const [record] = Object.values(asideRecords(storage));
  assert.deepEqual([record.kind, record.id, record.reason, record.value.answer], ["quiz", "q", "mismatch", 7]);
});

test("an older receipt over newer work keeps the newer; the older is set aside where it can be got back", () => {
  const storage = new FakeStorage();
  storage.setItem(CELL, JSON.stringify({ code: "newer", at: LATE }));
  const report = importInto(storage, { [CELL]: { code: "older", at: EARLY } });
  assert.equal(JSON.parse(storage.getItem(CELL)).code, "newer");
  assert.deepEqual(report.a, { added: 0, replaced: 0, kept: 1, aside: 0 });
  const [record] = Object.values(asideRecords(storage));
  assert.deepEqual([record.kind, record.id, record.reason, record.value.code], ["cell", "~c", "older", "older"]);
  assert.ok(Object.keys(collect(storage, {}).entries).some((name) => name.includes("set-aside")));
});

test("a newer imported entry replaces the learner's, which is set aside; one without a time counts as older", () => {
  const storage = new FakeStorage();
  storage.setItem(CELL, JSON.stringify({ code: "untimed" }));
  assert.deepEqual(importInto(storage, { [CELL]: { code: "timed", at: EARLY } }).a.replaced, 1);
  assert.equal(JSON.parse(storage.getItem(CELL)).code, "timed");
  assert.deepEqual(Object.values(asideRecords(storage)).map((record) => [record.reason, record.value.code]),
    [["older", "untimed"]]);
  assert.deepEqual(importInto(storage, { [CELL]: { code: "untimed again" } }).a.kept, 1);
  assert.equal(JSON.parse(storage.getItem(CELL)).code, "timed");
});

test("on a tie the learner's entry is kept and the imported one set aside; the same entry again changes nothing", () => {
  const storage = new FakeStorage();
  storage.setItem(CELL, JSON.stringify({ code: "mine", at: EARLY }));
  importInto(storage, { [CELL]: { code: "theirs", at: EARLY } });
  assert.equal(JSON.parse(storage.getItem(CELL)).code, "mine");
  assert.equal(Object.keys(asideRecords(storage)).length, 1);
  const report = importInto(storage, { [CELL]: { code: "mine", at: EARLY } });
  assert.deepEqual(report.a, { added: 0, replaced: 0, kept: 1, aside: 0 });
  assert.equal(Object.keys(asideRecords(storage)).length, 1);
});

test("a valid imported entry replaces a local one that does not fit its block, which is set aside", () => {
  const storage = new FakeStorage();
  storage.setItem(QUIZ, JSON.stringify({ answer: "not an option", at: LATE }));
  importInto(storage, { [QUIZ]: { answer: 2, checked: false, at: EARLY } });
  assert.equal(JSON.parse(storage.getItem(QUIZ)).answer, 2);
  assert.deepEqual(Object.values(asideRecords(storage)).map((record) => record.reason), ["mismatch"]);
});

test("an imported set-aside record never overwrites one the learner has: it takes a free name", () => {
  const storage = new FakeStorage();
  const name = "course:v1:a:set-aside:cell%3A~c";
  storage.setItem(name, JSON.stringify({ kind: "cell", id: "~c", reason: "older", value: { code: "mine" } }));
  importInto(storage, { [name]: { kind: "cell", id: "~c", reason: "older", value: { code: "theirs" } } });
  assert.deepEqual(Object.values(asideRecords(storage)).map((record) => record.value.code).sort(), ["mine", "theirs"]);
});

test("the import's report says per lesson what was added, replaced, kept and set aside", () => {
  const report = { a: { added: 2, replaced: 1, kept: 0, aside: 3 }, b: { added: 0, replaced: 0, kept: 4, aside: 0 } };
  const strings = { import_done: "In the file: {n}; taken: {taken}.", import_done_none: "In the file: {n}; none taken.",
    import_explained: "(why)", import_lesson: "{lesson}: {added} added, {replaced} replaced, {kept} kept, {aside} set aside." };
  assert.equal(describeImport(report, 10, strings),
    "In the file: 10; taken: 3. a: 2 added, 1 replaced, 0 kept, 3 set aside. b: 0 added, 0 replaced, 4 kept, 0 set aside. (why)");
  assert.equal(describeImport({ b: { added: 0, replaced: 0, kept: 1, aside: 0 } }, 1, strings),
    "In the file: 1; none taken. b: 0 added, 0 replaced, 1 kept, 0 set aside. (why)");
});

test("export holds what only the page's memory has, in place of what storage has", () => {
  const storage = new FakeStorage();
  storage.setItem(CELL, '{"code":"stored"}');
  storage.setItem(QUIZ, '{"answer":0}');
  const exported = collect(storage, { [CELL]: { code: "in memory" }, [QUIZ]: null, "course:v1:a:exercise:ex": { hints: 1 } });
  assert.deepEqual(exported.entries, { [CELL]: { code: "in memory" }, "course:v1:a:exercise:ex": { hints: 1 } });
});
