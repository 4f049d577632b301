// The SCORM 1.2 client's rules, apart from any platform: the search for the API, the saved work in suspend_data
// (what fits, what wins on restore), and the score and status the lesson's results give.
import assert from "node:assert/strict";
import { test } from "node:test";

import { findAPI, quizResponse, restore, results, suspendData, timespan } from "../../site/page/scorm.js";
import { key } from "../../site/page/storage.js";
import { MemoryStorage } from "./memory-storage.mjs";

const LESSON = "000-varias-cabezas";
const DATA = {
  lesson: LESSON,
  quizzes: [{ id: 1, key: "a", kind: "single", options: 4 }, { id: 2, key: "b", kind: "truefalse" }],
  exercises: [{ id: "multi_head", key: "multi_head" }],
  self_checks: [],
};
const right = { answer: 1, checked: true, state: "right", earned: true };
const wrong = { answer: 0, checked: true, state: "wrong", earned: false };
const passed = { attempts: 1, result: { passed: true, results: [{ ok: true, message: "ok" }] } };

function store(entries) {
  const storage = new MemoryStorage();
  for (const [kind, id, value] of entries) storage.setItem(key(LESSON, kind, id), JSON.stringify(value));
  return storage;
}

const read = (storage) => (name) => JSON.parse(storage.getItem(name));

test("the API is found on a frame above, on the opener's frames, or not at all", () => {
  const api = { LMSInitialize() {} };
  const top = { API: api };
  top.parent = top;
  const middle = { parent: top };
  assert.equal(findAPI({ parent: middle }), api);
  const alone = {};
  alone.parent = alone;
  assert.equal(findAPI(alone), null);
  assert.equal(findAPI({ parent: null, opener: { parent: null, API: api } }), api);
  const foreign = { get API() { throw new DOMException("cross-origin", "SecurityError"); } };
  assert.equal(findAPI({ parent: foreign }), null);
});

test("the score counts quizzes right and challenges passed out of all of them", () => {
  const storage = store([["quiz", "a", right], ["quiz", "b", { answer: false, checked: true, state: "wrong" }],
    ["exercise", "multi_head", passed]]);
  const outcome = results(DATA, read(storage));
  assert.equal(outcome.score, 67);
  assert.equal(outcome.status, "completed"); // every block answered, not every one right
  assert.deepEqual(outcome.interactions.map((one) => [one.id, one.type, one.result, one.response]), [
    ["quiz-1", "choice", "correct", "b"], ["quiz-2", "true-false", "wrong", "f"],
    ["challenge-multi_head", "performance", "correct", ""]]);
});

test("passed follows the self-check's lists where they name blocks, and every block where none does", () => {
  const storage = store([["quiz", "a", right], ["exercise", "multi_head", passed]]);
  assert.equal(results(DATA, read(storage)).status, "incomplete");
  const listed = { ...DATA, self_checks: [{ items: [{ quiz: ["a"], exercise: ["multi_head"] }] }] };
  assert.equal(results(listed, read(storage)).status, "passed");
  assert.equal(results(listed, read(store([["quiz", "a", wrong]]))).status, "incomplete");
});

test("suspend_data keeps results first and stays within its limit", () => {
  const storage = store([["cell", "~1", { code: "x".repeat(3000) }], ["quiz", "a", right],
    ["exercise", "multi_head", passed], ["exercise-code", "multi_head", { code: "y".repeat(2000) }]]);
  storage.setItem("course:v1:other-lesson:quiz:a", JSON.stringify(right));
  const { text, left } = suspendData(LESSON, storage, 4096);
  assert.ok(text.length <= 4096);
  const kinds = JSON.parse(text).work.map((entry) => entry[0]);
  assert.deepEqual(kinds, ["quiz", "exercise", "exercise-code"]);
  assert.equal(left, 1); // the edited cell stays in this browser only
});

test("restoring takes what the browser lacks or holds older, and keeps newer work of its own", () => {
  const platform = JSON.stringify({ v: 1, work: [
    ["quiz", "a", { ...right, at: "2026-01-02T00:00:00Z" }], ["exercise", "multi_head", { ...passed, at: "2026-01-02T00:00:00Z" }]] });
  const storage = store([["quiz", "a", { ...wrong, at: "2026-01-03T00:00:00Z" }],
    ["exercise", "multi_head", { attempts: 0, at: "2026-01-01T00:00:00Z" }]]);
  assert.equal(restore(LESSON, platform, storage), 1);
  assert.equal(JSON.parse(storage.getItem(key(LESSON, "quiz", "a"))).state, "wrong");
  assert.equal(JSON.parse(storage.getItem(key(LESSON, "exercise", "multi_head"))).result.passed, true);
  assert.equal(restore(LESSON, "not json", storage), 0);
  assert.equal(restore(LESSON, JSON.stringify({ v: 2, work: [] }), storage), 0);
});

test("answers and times are written as SCORM 1.2 wants them", () => {
  assert.equal(quizResponse({ kind: "multiple" }, [0, 2]), "a,c");
  assert.equal(quizResponse({ kind: "numeric" }, " 0,5 "), "0.5");
  assert.equal(quizResponse({ kind: "truefalse" }, null), "");
  assert.equal(timespan(3723450), "0001:02:03.45");
});
