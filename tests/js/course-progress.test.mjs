// The index's progress per lesson, read from saved work on a storage that behaves like localStorage (node --test).
import assert from "node:assert/strict";
import { test } from "node:test";

import { describeProgress, lastOpened, pageProgress } from "../../site/page/course-progress.js";
import { key } from "../../site/page/storage.js";
import { MemoryStorage } from "./memory-storage.mjs";

const BLOCKS = { quiz: ["a", "b", "c"], exercise: ["e"] };
const SHAPES = { quiz: { a: { kind: "single", options: ["o0", "o1", "o2"] }, b: { kind: "truefalse", options: [] },
  c: { kind: "multiple", options: ["o0", "o1", "o2"] } } };
const STRINGS = { progress_quizzes: "{right}/{total} q", progress_challenges: "{passed}/{total} c",
  progress_untouched: "untouched", progress_opened: "opened" };

function storageWith(page, entries) {
  return new MemoryStorage(Object.fromEntries(Object.entries(entries).map(
    ([name, value]) => [key(page, ...name.split(":")), JSON.stringify(value)])));
}

test("a quiz counts when it is right now or was right before a retry, and a passed check counts", () => {
  const storage = storageWith("01", {
    "quiz:a": { answer: 0, checked: true, state: "right" },
    "quiz:b": { answer: null, checked: false, earned: true },
    "quiz:c": { answer: [0], checked: true, state: "wrong" },
    "exercise:e": { attempts: 2, result: { passed: true, results: [] } },
  });
  const progress = pageProgress("01", BLOCKS, SHAPES, storage);
  assert.deepEqual(progress.quizzes, [2, 3]);
  assert.deepEqual(progress.challenges, [1, 1]);
  assert.equal(describeProgress(progress, STRINGS), "2/3 q · 1/1 c");
});

test("work that does not fit its block counts for nothing, as on the lesson page", () => {
  const storage = storageWith("01", {
    "quiz:a": { answer: 7, checked: true, state: "right" }, // an option the quiz does not have
    "exercise:e": { result: { passed: "yes" } },
  });
  const progress = pageProgress("01", BLOCKS, SHAPES, storage);
  assert.deepEqual(progress.quizzes, [0, 3]);
  assert.deepEqual(progress.challenges, [0, 1]);
  assert.equal(describeProgress(progress, STRINGS), "untouched");
});

test("a page opened with nothing right says it was opened, and one never opened says so", () => {
  const opened = storageWith("01", { "visit:page": { opened: true, at: "2026-01-01T00:00:00Z" } });
  assert.equal(describeProgress(pageProgress("01", {}, { quiz: {} }, opened), STRINGS), "opened");
  assert.equal(describeProgress(pageProgress("01", BLOCKS, SHAPES, opened), STRINGS), "0/3 q · 0/1 c");
  assert.equal(describeProgress(pageProgress("02", BLOCKS, SHAPES, opened), STRINGS), "untouched");
});

test("where the learner left off is the page opened last, and a misshaped visit is ignored", () => {
  const storage = new MemoryStorage({
    [key("01", "visit", "page")]: JSON.stringify({ opened: true, at: "2026-01-02T00:00:00Z" }),
    [key("02/en", "visit", "page")]: JSON.stringify({ opened: true, at: "2026-01-03T00:00:00Z" }),
    [key("03", "visit", "page")]: JSON.stringify({ opened: "yes", at: "2026-01-09T00:00:00Z" }),
  });
  assert.equal(lastOpened(["01", "02/en", "03"], storage), "02/en");
  assert.equal(lastOpened(["03"], storage), null);
});
