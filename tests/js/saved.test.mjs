// Saved work read against its block: what fits comes back, anything else is set aside, never thrown or lost.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fitsExercise } from "../../site/page/fits.js";
import { blockNames, countTakenBack, key, legacyNames, migrate, read, setAside, sweep } from "../../site/page/storage.js";
import { merge } from "../../site/page/work.js";
import { MemoryStorage } from "./memory-storage.mjs";

const isCode = (saved) => typeof saved.code === "string";
const asideName = (id) => key("l", "set-aside", id);

test("an entry that fits comes back; none is null; garbage and misfits are set aside with their text", () => {
  const storage = new MemoryStorage({
    [key("l", "cell", "a")]: '{"code":"mine"}', [key("l", "cell", "b")]: "{garbage", [key("l", "cell", "c")]: "[1]",
  });
  assert.deepEqual(read(key("l", "cell", "a"), isCode, storage), { value: { code: "mine" } });
  assert.deepEqual(read(key("l", "cell", "z"), isCode, storage), { value: null });
  assert.deepEqual(read(key("l", "cell", "b"), isCode, storage), { value: null, setAside: true });
  assert.deepEqual(read(key("l", "cell", "c"), () => { throw new TypeError("no"); }, storage),
    { value: null, setAside: true });
  assert.equal(storage.getItem(key("l", "cell", "b")), null);
  const garbage = JSON.parse(storage.getItem(asideName("cell:b")));
  assert.deepEqual([garbage.kind, garbage.id, garbage.reason, garbage.text], ["cell", "b", "unreadable", "{garbage"]);
  assert.deepEqual(JSON.parse(storage.getItem(asideName("cell:c"))).value, [1]);
});

test("setting the same entry aside twice keeps both", () => {
  const storage = new MemoryStorage({ [key("l", "quiz", "q")]: '{"answer":1}' });
  assert.equal(setAside(key("l", "quiz", "q"), "mismatch", storage), true);
  storage.setItem(key("l", "quiz", "q"), '{"answer":2}');
  assert.equal(setAside(key("l", "quiz", "q"), "mismatch", storage), true);
  assert.deepEqual(JSON.parse(storage.getItem(asideName("quiz:q"))).value, { answer: 1 });
  assert.deepEqual(JSON.parse(storage.getItem(asideName("quiz:q~2"))).value, { answer: 2 });
});

test("a positional entry moves to the stable key once when it fits, and is set aside when it does not", () => {
  const storage = new MemoryStorage({ [key("l", "cell", 1)]: '{"code":"x"}', [key("l", "cell", 2)]: '{"code":3}' });
  assert.equal(migrate(key("l", "cell", 1), key("l", "cell", "~a"), isCode, storage), "moved");
  assert.equal(storage.getItem(key("l", "cell", "~a")), '{"code":"x"}');
  assert.equal(migrate(key("l", "cell", 1), key("l", "cell", "~a"), isCode, storage), null);
  assert.equal(migrate(key("l", "cell", 2), key("l", "cell", "~b"), isCode, storage), "set-aside");
  assert.equal(storage.getItem(key("l", "cell", "~b")), null);
  assert.notEqual(storage.getItem(asideName("cell:2")), null);
});

test("entries of blocks the lesson no longer has are set aside; other lessons' and foreign keys are left", () => {
  const blocks = { cell: ["~a"], quiz: ["q"], exercise: ["ex"] };
  const storage = new MemoryStorage({
    [key("l", "cell", "~a")]: "{}", [key("l", "exercise-code", "ex")]: "{}", [key("l", "cell", "~gone")]: "{}",
    [key("l", "quiz", 7)]: "{}", [key("other", "cell", "~gone")]: "{}", "someone-else": "x",
  });
  assert.equal(sweep("l", blockNames("l", blocks), storage), 2);
  assert.deepEqual([...storage.items.keys()].sort(), [asideName("cell:~gone"), asideName("quiz:7"),
    key("l", "cell", "~a"), key("l", "exercise-code", "ex"), key("other", "cell", "~gone"), "someone-else"].sort());
  assert.deepEqual([...legacyNames("l", blocks)], [key("l", "cell", 1), key("l", "quiz", 1)]);
});

test("an import keeps entries of known and positional blocks and sets aside the rest under free names", () => {
  const blocks = { l: { cell: ["~a"], quiz: [], exercise: [] } };
  const storage = new MemoryStorage({ [asideName("cell:~gone")]: "{}" });
  const entries = {
    [key("l", "cell", "~a")]: { code: "1" }, [key("l", "cell", 1)]: { code: "2" },
    [key("l", "cell", "~gone")]: { code: "3" }, [asideName("quiz:1")]: { kind: "quiz" },
  };
  const { writes: kept, report } = merge(entries, { blocks }, storage);
  assert.deepEqual(report, { l: { added: 2, replaced: 0, kept: 0, aside: 2 } });
  assert.deepEqual(Object.keys(kept).sort(), [asideName("cell:~gone~2"), asideName("quiz:1"), key("l", "cell", "~a"),
    key("l", "cell", 1)].sort());
  assert.deepEqual(kept[asideName("cell:~gone~2")].value, { code: "3" });
});

test("set-aside work comes back when its block is there again and it fits, the newest first, and is counted", () => {
  const record = (reason, code, at) => JSON.stringify({ kind: "cell", id: "a", reason, at, value: { code } });
  const storage = new MemoryStorage({
    [asideName("cell:a")]: record("no-block", "gone and back", "2026-01-01T00:00:00Z"),
    [asideName("cell:a~2")]: record("mismatch", "newest", "2026-01-03T00:00:00Z"),
    [asideName("cell:a~3")]: record("older", "replaced by newer work", "2026-01-04T00:00:00Z"),
    [asideName("cell:b")]: JSON.stringify({ kind: "cell", id: "b", reason: "no-block", value: { code: 3 } }),
  });
  countTakenBack();
  assert.deepEqual(read(key("l", "cell", "a"), isCode, storage), { value: { code: "newest" }, takenBack: true });
  assert.equal(JSON.parse(storage.getItem(key("l", "cell", "a"))).code, "newest");
  assert.equal(storage.getItem(asideName("cell:a~2")), null);
  assert.deepEqual(read(key("l", "cell", "b"), isCode, storage), { value: null }); // it does not fit
  assert.equal(countTakenBack(), 1);
  assert.equal(countTakenBack(), 0);
  assert.deepEqual([...storage.items.keys()].sort(), [asideName("cell:a"), asideName("cell:a~3"), asideName("cell:b"),
    key("l", "cell", "a")].sort());
});

test("an exercise state with more hints than the exercise has now fits (the page clamps the count)", () => {
  assert.equal(fitsExercise({ attempts: 2, hints: 9, solutionShown: false, result: null }), true);
  assert.equal(fitsExercise({ attempts: -1, hints: 1 }), false);
  assert.equal(fitsExercise({ hints: 1.5 }), false);
  assert.equal(fitsExercise({ hints: 2, hintsShown: 0, solutionShown: true, solutionOpen: false }), true); // started over
  assert.equal(fitsExercise({ hints: 2, hintsShown: -1 }), false);
  assert.equal(fitsExercise({ solutionShown: true, solutionOpen: "no" }), false);
});
