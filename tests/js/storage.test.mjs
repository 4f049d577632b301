// The storage-key scheme: every lesson slug and block id the build accepts comes back out of its key.
import assert from "node:assert/strict";
import { test } from "node:test";

import { key, parseKey } from "../../site/page/storage.js";

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
