// Import and export of saved work, on a storage object that behaves like localStorage (node --test).
import assert from "node:assert/strict";
import { test } from "node:test";

import { collect, validate, writeAll } from "../../site/page/work.js";

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
