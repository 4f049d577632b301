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

test("the folds and the self-check count a quiz right only through the quiz's own validation", async () => {
  const { exerciseIsPassed, quizIsRight } = await import("../../site/page/fits.js");
  const block = { kind: "single", options: ["o0", "o1", "o2"] };
  assert.equal(quizIsRight(block, { answer: 1, checked: true, state: "right" }), true);
  assert.equal(quizIsRight(block, { answer: 7, checked: true, state: "right" }), false); // an option it lacks
  assert.equal(quizIsRight(block, { answer: 1, checked: "yes", state: "right" }), false);
  assert.equal(quizIsRight(undefined, { answer: 1, checked: true, state: "right" }), false); // a quiz gone
  assert.equal(quizIsRight(block, { answer: 2, checked: false, earned: true }), false);
  assert.equal(quizIsRight(block, { answer: 2, checked: false, earned: true }, { earned: true }), true);
  assert.equal(exerciseIsPassed({ attempts: 2, result: { passed: true, results: [] } }), true);
  assert.equal(exerciseIsPassed({ attempts: -1, result: { passed: true, results: [] } }), false);
  assert.equal(exerciseIsPassed({ attempts: 2, result: { passed: false, results: [] } }), false);
});
