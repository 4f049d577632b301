// The storage-key scheme: every lesson slug and block id the build accepts comes back out of its key.
import assert from "node:assert/strict";
import { test } from "node:test";

import { key, load, parseKey, remove, save, unsavedEntries, whenUnsaved } from "../../site/page/storage.js";

const SLUGS = ["000-varias-cabezas", "03 atención", "04-увага", "05 ñandú: ¿qué?", "100%", "a.b_c-d", "日本語 🎉", "x:y:z"];
const IDS = [1, 42, "multi_head", "id with spaces", "ключ"];

test("every slug and id round-trips through its storage key", () => {
  for (const lesson of SLUGS) {
    for (const kind of ["cell", "quiz", "exercise", "exercise-code"]) {
      for (const id of IDS) {
        assert.deepEqual(parseKey(key(lesson, kind, id)), { lesson, kind, id: String(id) }, key(lesson, kind, id));
      }
    }
  }
});

test("the keys of ASCII slugs are the ones saved before (work saved earlier is still found)", () => {
  assert.equal(key("000-varias-cabezas", "cell", 1), "course:v1:000-varias-cabezas:cell:1");
  assert.equal(key("000-varias-cabezas", "exercise-code", "multi_head"), "course:v1:000-varias-cabezas:exercise-code:multi_head");
});

test("keys that are not ours, or not in their canonical form, are not read as ours", () => {
  for (const name of ["evil", "course:v1:a:cell", "course:v1:a:answer:1", "course:v2:a:cell:1", "course:v1:a b:cell:1",
    "course:v1:%E0%A4%A:cell:1", "course:v1::cell:1", "course:v1:a:cell:", "other:v1:a:cell:1"]) {
    assert.equal(parseKey(name), null, name);
  }
});

/** A storage that refuses every write while `full` is true, as a browser does when its quota is used up. */
class FullStorage {
  constructor() { this.items = new Map(); this.full = true; }

  getItem(name) { return this.items.has(name) ? this.items.get(name) : null; }

  setItem(name, value) {
    if (this.full) throw Object.assign(new Error("exceeded the quota"), { name: "QuotaExceededError" });
    this.items.set(name, value);
  }

  removeItem(name) { this.items.delete(name); }
}

test("every saved entry is stamped with the time it was saved", () => {
  const storage = new FullStorage();
  storage.full = false;
  const before = Date.now();
  assert.equal(save(key("l", "quiz", "q"), { answer: 1 }, storage), true);
  const saved = JSON.parse(storage.getItem(key("l", "quiz", "q")));
  assert.equal(saved.answer, 1);
  assert.ok(Date.parse(saved.at) >= before - 1000 && Date.parse(saved.at) <= Date.now());
});

test("a save the browser refuses is reported, kept in memory, read back, and written on the next save", () => {
  const storage = new FullStorage();
  const refused = [];
  whenUnsaved((error) => refused.push(error.name));
  assert.equal(save(key("l", "cell", "a"), { code: "first" }, storage), false);
  assert.equal(save(key("l", "quiz", "q"), { answer: 0 }, storage), false);
  remove(key("l", "cell", "gone"), storage);
  assert.deepEqual(refused, ["QuotaExceededError", "QuotaExceededError", "QuotaExceededError"]);
  assert.equal(load(key("l", "cell", "a"), storage).code, "first");
  assert.deepEqual(Object.keys(unsavedEntries()).sort(), [key("l", "cell", "a"), key("l", "cell", "gone"),
    key("l", "quiz", "q")].sort());
  storage.full = false;
  storage.items.set(key("l", "cell", "gone"), "{}");
  assert.equal(save(key("l", "exercise", "ex"), { hints: 1 }, storage), true);
  assert.deepEqual([...storage.items.keys()].sort(), [key("l", "cell", "a"), key("l", "exercise", "ex"),
    key("l", "quiz", "q")].sort());
  assert.deepEqual(unsavedEntries(), {});
  whenUnsaved(() => {});
});
