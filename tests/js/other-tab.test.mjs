// Two tabs of one lesson: what another tab saved is noticed, set aside rather than overwritten, and an exercise's
// record of checks, hints and solution merges without either tab's counts going back.
import assert from "node:assert/strict";
import { test } from "node:test";

import { OtherTab, mergeExerciseStates, setAsideText } from "../../site/page/other-tab.js";
import { key } from "../../site/page/storage.js";
import { MemoryStorage } from "./memory-storage.mjs";

const NAME = key("l", "quiz", "q");

/** A window whose localStorage is `storage`, recording its `storage` listeners so a test can fire them. */
function fakeWindow(storage) {
  const listeners = [];
  globalThis.window = { localStorage: storage, addEventListener: (type, listener) => listeners.push([type, listener]) };
  return (eventKey) => listeners.filter(([type]) => type === "storage").forEach(([, listener]) => listener({ key: eventKey }));
}

const asides = (storage) => [...storage.items].filter(([name]) => name.includes(":set-aside:"))
  .map(([, text]) => JSON.parse(text));

test("an entry set aside as older keeps its value, its kind and id, next to any set aside before", () => {
  const storage = new MemoryStorage();
  assert.equal(setAsideText(NAME, '{"answer":1}', storage), true);
  assert.equal(setAsideText(NAME, '{"answer":2}', storage), true);
  assert.deepEqual(asides(storage).map((record) => [record.kind, record.id, record.reason, record.value.answer]),
    [["quiz", "q", "older", 1], ["quiz", "q", "older", 2]]);
  assert.equal(setAsideText("not one of ours", "{}", storage), false);
});

test("a write after another tab's unseen save sets that save aside first; one after a seen save does not", () => {
  const storage = new MemoryStorage({ [NAME]: '{"answer":0}' });
  const seen = [];
  const fire = fakeWindow(storage);
  const tabs = new OtherTab(NAME, (text) => seen.push(text));
  tabs.beforeWrite();
  assert.deepEqual(asides(storage), []); // storage holds what this tab read
  storage.setItem(NAME, '{"answer":2}'); // the other tab saves
  fire(NAME);
  fire(key("l", "quiz", "another"));
  assert.deepEqual(seen, ['{"answer":2}']); // told once, of its own entry only
  tabs.beforeWrite();
  assert.deepEqual(asides(storage).map((record) => record.value.answer), [2]);
  storage.setItem(NAME, '{"answer":1}');
  tabs.wrote();
  tabs.beforeWrite();
  assert.equal(asides(storage).length, 1); // this tab's own write is nobody else's work
});

test("an exercise's states merge to the most checks and hints either tab saw, and the newest result", () => {
  const mine = { attempts: 3, result: { passed: false, results: [] }, hints: 2, solutionShown: false };
  const theirs = { attempts: 1, result: { passed: true, results: [] }, hints: 0, solutionShown: true, at: "t" };
  assert.deepEqual(mergeExerciseStates(mine, theirs),
    { attempts: 3, result: { passed: true, results: [] }, hints: 2, solutionShown: true, at: "t" });
  const merged = mergeExerciseStates(mine, theirs);
  assert.deepEqual(mergeExerciseStates(theirs, merged), merged); // the other tab adds nothing: no save back
});

test("what is open now is the newest save's: a start-over in one tab folds the other's hints and solution too", () => {
  const mine = { attempts: 1, hints: 2, hintsShown: 2, solutionShown: true, solutionOpen: true };
  const theirs = { attempts: 1, hints: 2, hintsShown: 0, solutionShown: true, solutionOpen: false };
  const merged = mergeExerciseStates(mine, theirs);
  assert.deepEqual([merged.hints, merged.solutionShown], [2, true]); // what was taken still counts
  assert.deepEqual([merged.hintsShown, merged.solutionOpen], [0, false]);
});
