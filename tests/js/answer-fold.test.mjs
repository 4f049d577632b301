// The saved kind of answer-first outputs ("revealed"): validated when read, owned by its cell, carried by exports.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fitsReveal } from "../../site/page/fits.js";
import { blockNames, key, parseKey, read, sweep } from "../../site/page/storage.js";
import { merge } from "../../site/page/work.js";
import { MemoryStorage } from "./memory-storage.mjs";

test("a reveal says how the output was revealed; anything else is set aside, not thrown", () => {
  for (const by of ["answered", "run", "shown"]) assert.equal(fitsReveal({ by }), true);
  for (const saved of [null, true, [], { by: "peeked" }, { revealed: true }]) assert.equal(fitsReveal(saved), false);
  const storage = new MemoryStorage({ [key("l", "revealed", "e1")]: '{"by":"soon"}' });
  assert.deepEqual(read(key("l", "revealed", "e1"), fitsReveal, storage), { value: null, setAside: true });
  assert.equal(JSON.parse(storage.getItem(key("l", "set-aside", "revealed:e1"))).value.by, "soon");
});

test("a reveal belongs to its cell: kept while the cell is there, set aside once it is gone", () => {
  assert.deepEqual(parseKey(key("l", "revealed", "e1")), { lesson: "l", kind: "revealed", id: "e1" });
  const storage = new MemoryStorage({
    [key("l", "revealed", "e1")]: '{"by":"run"}', [key("l", "revealed", "~gone")]: '{"by":"shown"}',
  });
  assert.equal(sweep("l", blockNames("l", { cell: ["e1"] }), storage), 1);
  assert.equal(storage.getItem(key("l", "revealed", "e1")), '{"by":"run"}');
  const course = { blocks: { l: { cell: ["e1"], quiz: [], exercise: [] } } };
  const imported = merge({ [key("l", "revealed", "e1")]: { by: "answered" } }, course, new MemoryStorage());
  assert.deepEqual(imported.writes, { [key("l", "revealed", "e1")]: { by: "answered" } });
  const misfit = merge({ [key("l", "revealed", "e1")]: { by: "peeked" } }, course, new MemoryStorage());
  assert.equal(misfit.report.l.aside, 1); // an imported reveal is checked as the page reads one
});
