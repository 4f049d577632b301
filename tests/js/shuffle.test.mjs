// The per-learner order of a quiz's options (node --test): deterministic per seed, different across seeds, every
// option once; the seed is made once and kept; an answer saved by id, or by position before ids, survives a
// reordered course.
import assert from "node:assert/strict";
import test from "node:test";

import { answerByIds, fitsQuiz, quizIsRight } from "../../site/page/fits.js";
import { suspendData, restore } from "../../site/page/scorm.js";
import { lessonSeed, shuffled } from "../../site/page/shuffle.js";
import { SEED, blockNames, key } from "../../site/page/storage.js";
import { MemoryStorage } from "./memory-storage.mjs";

const IDS = ["a1", "b2", "c3", "d4", "e5"];

test("the order is the same for one seed and quiz, every option appears once, and seeds give other orders", () => {
  const order = shuffled(IDS, "quiz-key", "seed0001");
  assert.deepEqual(shuffled(IDS, "quiz-key", "seed0001"), order);
  assert.deepEqual([...order].sort(), [...IDS].sort());
  const orders = new Set(Array.from({ length: 40 }, (_, n) => shuffled(IDS, "quiz-key", "s" + n).join(",")));
  assert.ok(orders.size > 20, "40 seeds drew only " + orders.size + " orders of 120");
  const quizzes = new Set(Array.from({ length: 40 }, (_, n) => shuffled(IDS, "q" + n, "seed0001").join(",")));
  assert.ok(quizzes.size > 20, "one seed gives every quiz the same order");
  // Each option comes first about as often as the others (200 seeds: 40 expected each).
  const firsts = new Map(IDS.map((id) => [id, 0]));
  for (let n = 0; n < 200; n += 1) firsts.set(shuffled(IDS, "k", "x" + n)[0], firsts.get(shuffled(IDS, "k", "x" + n)[0]) + 1);
  for (const count of firsts.values()) assert.ok(count > 15 && count < 70, JSON.stringify([...firsts]));
});

test("a course update that only reorders the options shows the learner the same order", () => {
  assert.deepEqual(shuffled(["c3", "a1", "e5", "b2", "d4"], "quiz-key", "seed0001"), shuffled(IDS, "quiz-key", "seed0001"));
});

test("the seed is made once per lesson, kept in the saved work, and is one of the lesson's own entries", () => {
  const storage = new MemoryStorage();
  const seed = lessonSeed("l", storage);
  assert.match(seed, /^[0-9a-z]{8}$/);
  assert.equal(lessonSeed("l", storage), seed);
  assert.equal(JSON.parse(storage.getItem(key("l", "seed", SEED))).seed, seed);
  assert.ok(blockNames("l", {}).has(key("l", "seed", SEED))); // the page's sweep leaves it in place
  assert.notEqual(lessonSeed("l", new MemoryStorage()), seed); // another browser draws its own
});

test("an answer saved by id survives a course update that reorders the options; one by position is mapped once", () => {
  const before = { kind: "single", key: "q", options: ["a1", "b2", "c3"], correct: ["b2"] };
  const after = { ...before, options: ["c3", "b2", "a1"] };
  const saved = { answer: "a1", checked: true, state: "wrong" };
  assert.ok(fitsQuiz(before, saved) && fitsQuiz(after, saved));
  assert.equal(answerByIds(after, saved.answer), "a1");
  // Saved before ids: position 0 of the build the learner has now.
  assert.equal(answerByIds(after, 0), "c3");
  assert.deepEqual(answerByIds({ kind: "multiple", options: ["x", "y", "z"] }, [2, 0]), ["z", "x"]);
  assert.ok(!fitsQuiz(after, { answer: 3, checked: true })); // a position out of range does not fit
  assert.ok(!fitsQuiz(after, { answer: "zz", checked: true })); // nor an option the quiz no longer has
  assert.ok(quizIsRight(after, { answer: "b2", checked: true, state: "right" }));
});

test("the compact SCORM record carries the seed and the answers by id, and restores them", () => {
  const storage = new MemoryStorage();
  const at = "2026-12-07T05:00:00.000Z";
  storage.setItem(key("l", "quiz", "q"), JSON.stringify({ answer: ["b2", "c3"], checked: true, state: "right", at }));
  storage.setItem(key("l", "seed", SEED), JSON.stringify({ seed: "abc12345", at }));
  const { text } = suspendData("l", storage);
  const record = JSON.parse(text);
  assert.equal(record.s, "abc12345");
  assert.deepEqual(record.q.q[0], ["b2", "c3"]);
  const elsewhere = new MemoryStorage();
  restore("l", text, elsewhere, {});
  assert.equal(lessonSeed("l", elsewhere), "abc12345");
});
