// The SCORM 1.2 client's rules, apart from any platform: the search for the API, the saved work in suspend_data
// (what fits, what wins on restore), the score and status the lesson's results give, and the page's calls to a
// platform's API object (a fake one that records them).
import assert from "node:assert/strict";
import { test } from "node:test";

import { Platform, findAPI, quizResponse, restore, results, suspendData, timespan } from "../../site/page/scorm.js";
import { key } from "../../site/page/storage.js";
import { MemoryStorage } from "./memory-storage.mjs";

const LESSON = "000-varias-cabezas";
const DATA = {
  lesson: LESSON,
  quizzes: [{ id: 1, key: "a", kind: "single", options: ["o0", "o1", "o2", "o3"] }, { id: 2, key: "b", kind: "truefalse" }],
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
    ["quiz-a", "choice", "correct", "b"], ["quiz-b", "true-false", "wrong", "f"],
    ["challenge-multi_head", "performance", "correct", ""]]);
});

test("passed follows the self-check's lists where they name blocks, and every block where none does", () => {
  const storage = store([["quiz", "a", right], ["exercise", "multi_head", passed]]);
  assert.equal(results(DATA, read(storage)).status, "incomplete");
  const listed = { ...DATA, self_checks: [{ items: [{ quiz: ["a"], exercise: ["multi_head"] }] }] };
  assert.equal(results(listed, read(storage)).status, "passed");
  assert.equal(results(listed, read(store([["quiz", "a", wrong]]))).status, "incomplete");
});

test("suspend_data holds each verdict compactly, without checker messages or lesson code", () => {
  const messages = { attempts: 3, hints: 2, result: { passed: true, results: [{ ok: true, message: "m".repeat(400) }] } };
  const storage = store([["quiz", "a", right], ["quiz", "b", { answer: null, checked: false }],
    ["exercise", "multi_head", messages],
    ["exercise-code", "multi_head", { code: "solved()", original: "s".repeat(900) }], ["revealed", "r1", { by: "run" }]]);
  const { text, left } = suspendData(LESSON, storage, 4096);
  const record = JSON.parse(text);
  assert.deepEqual(record.q, { a: [1, 2], b: [null, 0] });
  assert.deepEqual(record.c, { multi_head: [true, 3, 2] });
  assert.deepEqual(record.e, { "exercise-code:multi_head": "solved()" });
  assert.deepEqual(record.r, { r1: "run" });
  assert.ok(!text.includes("mmm") && !text.includes("sss"));
  assert.deepEqual(left, []);
});

test("when the record does not fit, cells' edits go first, then reveals, and never a verdict", () => {
  const storage = store([["cell", "big", { code: "x".repeat(3500) }], ["cell", "small", { code: "y" }],
    ["quiz", "a", right], ["exercise", "multi_head", passed], ["revealed", "r1", { by: "shown" }],
    ["exercise-code", "multi_head", { code: "z".repeat(900) }]]);
  storage.setItem("course:v1:other-lesson:quiz:a", JSON.stringify(right));
  const roomy = suspendData(LESSON, storage, 4096);
  assert.ok(roomy.text.length <= 4096);
  assert.deepEqual(Object.keys(JSON.parse(roomy.text).e).sort(), ["cell:small", "exercise-code:multi_head"]);
  assert.deepEqual(roomy.left, ["cell"]);
  const verdicts = suspendData(LESSON, store([["quiz", "a", right], ["exercise", "multi_head", passed]])).text;
  const tight = suspendData(LESSON, storage, verdicts.length + 5); // room for the verdicts, not for "y" or a reveal
  const record = JSON.parse(tight.text);
  assert.deepEqual([record.q, record.c, record.e, record.r], [{ a: [1, 2] }, { multi_head: [true, 1, 0] }, {}, {}]);
  assert.deepEqual(tight.left, ["cell", "exercise-code", "revealed"]);
});

test("restoring a compact record gives back what the page shows, and keeps newer or fuller work of this browser", () => {
  const page = { ...DATA, exercises: [{ ...DATA.exercises[0], starter: "def f(): ..." }], cells: [{ key: "c1", code: "1+1" }] };
  const text = JSON.stringify({ v: 2, t: Date.parse("2026-01-02T00:00:00Z") / 1000, q: { a: [1, 3], b: [true, 2] },
    c: { multi_head: [true, 2, 1] }, r: {}, e: { "cell:c1": "2+2", "exercise-code:multi_head": "def f(): 1" } });
  const storage = store([["quiz", "b", { answer: false, checked: true, state: "wrong", at: "2026-01-03T00:00:00Z" }],
    ["exercise", "multi_head", { ...passed, attempts: 2, hints: 1, at: "2026-01-01T00:00:00Z" }]]);
  assert.equal(restore(LESSON, text, storage, page), 3); // quiz a, both edits; b is newer here, the challenge the same
  const saved = read(storage);
  assert.deepEqual(saved(key(LESSON, "quiz", "a")), { answer: 1, checked: true, earned: true, state: "wrong",
    at: "2026-01-02T00:00:00.000Z" });
  assert.equal(saved(key(LESSON, "quiz", "b")).answer, false);
  assert.equal(saved(key(LESSON, "exercise", "multi_head")).result.results[0].message, "ok"); // its messages kept
  assert.deepEqual(saved(key(LESSON, "exercise-code", "multi_head")), { code: "def f(): 1", original: "def f(): ...",
    at: "2026-01-02T00:00:00.000Z" });
  assert.equal(saved(key(LESSON, "cell", "c1")).original, "1+1");
  const elsewhere = new MemoryStorage();
  restore(LESSON, text, elsewhere, page);
  assert.deepEqual(read(elsewhere)(key(LESSON, "exercise", "multi_head")).result, { passed: true, results: [] });
  assert.equal(results(DATA, read(elsewhere)).score, 100); // a right once, b, the challenge: every verdict back
});

test("restoring still reads the first record's entries, and nothing from unreadable text", () => {
  const platform = JSON.stringify({ v: 1, work: [
    ["quiz", "a", { ...right, at: "2026-01-02T00:00:00Z" }], ["exercise", "multi_head", { ...passed, at: "2026-01-02T00:00:00Z" }]] });
  const storage = store([["quiz", "a", { ...wrong, at: "2026-01-03T00:00:00Z" }],
    ["exercise", "multi_head", { attempts: 0, at: "2026-01-01T00:00:00Z" }]]);
  assert.equal(restore(LESSON, platform, storage), 1);
  assert.equal(JSON.parse(storage.getItem(key(LESSON, "quiz", "a"))).state, "wrong");
  assert.equal(JSON.parse(storage.getItem(key(LESSON, "exercise", "multi_head"))).result.passed, true);
  assert.equal(restore(LESSON, "not json", storage), 0);
  assert.equal(restore(LESSON, JSON.stringify({ v: 3, work: [] }), storage), 0);
});

/** A platform's API object that keeps what it is sent; `overrides` replace or remove ({name: undefined}) calls. */
function fakeAPI(held = {}, overrides = {}) {
  const values = { "cmi.core.lesson_status": "not attempted", "cmi.interactions._count": "0", ...held };
  const api = {
    values, calls: [],
    LMSInitialize: () => "true",
    LMSGetValue: (name) => (name in values ? values[name] : ""),
    LMSSetValue: (name, value) => {
      api.calls.push(["set", name, value]);
      values[name] = value;
      const entry = /^cmi\.interactions\.(\d+)\.id$/.exec(name); // the platform counts the journal's entries
      if (entry) values["cmi.interactions._count"] = String(Math.max(Number(values["cmi.interactions._count"]), Number(entry[1]) + 1));
      return "true";
    },
    LMSCommit: () => { api.calls.push(["commit"]); return "true"; },
    LMSFinish: () => { api.calls.push(["finish"]); return "true"; },
  };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete api[name];
    else api[name] = value;
  }
  return api;
}

const interactionsOf = (api) => Object.entries(api.values).filter(([name]) => /^cmi\.interactions\.\d+\.(id|result)$/.test(name))
  .map(([name, value]) => [name.replace("cmi.interactions.", ""), value]);

test("the score sent never drops below what the platform holds, and a failed status stays failed", () => {
  const api = fakeAPI({ "cmi.core.score.raw": "100", "cmi.core.lesson_status": "failed" });
  new Platform(api, DATA, store([["quiz", "a", right]]), () => {}).report();
  assert.equal(api.values["cmi.core.score.raw"], "100");
  assert.equal(api.values["cmi.core.lesson_status"], "failed");
  const fresh = fakeAPI({ "cmi.core.score.raw": "" });
  new Platform(fresh, DATA, store([["quiz", "a", right]]), () => {}).report();
  assert.equal(fresh.values["cmi.core.score.raw"], "33");
});

test("a relaunch sends only results that are new or changed, each journalled under its block's key", () => {
  const storage = store([["quiz", "a", right], ["exercise", "multi_head", { attempts: 1, result: { passed: false, results: [] } }]]);
  const api = fakeAPI();
  const first = new Platform(api, DATA, storage, () => {});
  first.report();
  first.report();
  assert.deepEqual(interactionsOf(api), [["0.id", "quiz-a"], ["0.result", "correct"],
    ["1.id", "challenge-multi_head"], ["1.result", "wrong"]]);
  storage.setItem(key(LESSON, "exercise", "multi_head"), JSON.stringify({ attempts: 2, result: { passed: true, results: [] } }));
  first.report(); // the failed check stays in the journal, the pass comes after it
  assert.deepEqual(interactionsOf(api).slice(4), [["2.id", "challenge-multi_head"], ["2.result", "correct"]]);
  first.finish();
  const again = fakeAPI({ "cmi.suspend_data": api.values["cmi.suspend_data"], "cmi.interactions._count": "3" });
  const relaunch = new Platform(again, DATA, new MemoryStorage(), () => {});
  relaunch.report();
  assert.deepEqual(interactionsOf(again), []); // nothing new was answered
  assert.equal(again.values["cmi.core.score.raw"], "67");
});

test("every commit carries the session's time", () => {
  const api = fakeAPI();
  new Platform(api, DATA, store([["quiz", "a", right]]), () => {}).report();
  const commit = api.calls.findIndex((call) => call[0] === "commit");
  assert.ok(commit > 0);
  assert.ok(api.calls.slice(0, commit).some((call) => call[1] === "cmi.core.session_time"));
});

test("an API that lacks calls, throws or answers false leaves the page working", () => {
  const storage = store([["quiz", "a", right]]);
  const lacking = fakeAPI({}, { LMSFinish: undefined, LMSCommit: undefined });
  const platform = new Platform(lacking, DATA, storage, () => {});
  assert.doesNotThrow(() => { platform.report(); platform.finish(); });
  const boom = () => { throw new Error("platform down"); };
  const throwing = fakeAPI({}, { LMSGetValue: boom, LMSSetValue: boom, LMSCommit: boom, LMSFinish: boom });
  assert.doesNotThrow(() => { const one = new Platform(throwing, DATA, storage, () => {}); one.report(); one.finish(); });
  const refusing = fakeAPI({}, { LMSSetValue: () => "false", LMSCommit: () => "false", LMSFinish: () => "false" });
  assert.doesNotThrow(() => { const one = new Platform(refusing, DATA, storage, () => {}); one.report(); one.finish(); });
  const win = { parent: null, API: fakeAPI({}, { LMSInitialize: boom }) };
  assert.equal(Platform.connect(DATA, win), null);
});

test("the learner is told once, in the page's language, what did not travel", () => {
  const told = [];
  const strings = { scorm_edits_left: "edits stay", scorm_edits_reveals_left: "edits and reveals stay" };
  const storage = store([["quiz", "a", right], ["cell", "c1", { code: "x".repeat(5000) }]]);
  const platform = new Platform(fakeAPI(), { ...DATA, strings }, storage, (text) => told.push(text));
  platform.report();
  platform.report();
  assert.deepEqual(told, ["edits stay"]);
  storage.setItem(key(LESSON, "cell", "c1"), JSON.stringify({ code: "x" }));
  platform.report(); // the edit fits now: the note goes
  assert.deepEqual(told, ["edits stay", ""]);
});

test("answers and times are written as SCORM 1.2 wants them", () => {
  // Letters name options in source order, from ids (or from positions saved before ids), whatever order was shown.
  const multiple = { kind: "multiple", options: ["x9", "b2", "k7"] };
  assert.equal(quizResponse(multiple, ["x9", "k7"]), "a,c");
  assert.equal(quizResponse(multiple, [0, 2]), "a,c");
  assert.equal(quizResponse({ kind: "numeric" }, " 0,5 ", ","), "0.5");
  assert.equal(quizResponse({ kind: "numeric" }, "262.144", ","), "262144"); // as the Spanish quiz read it
  assert.equal(quizResponse({ kind: "numeric" }, "1 048 576", "."), "1048576");
  assert.equal(quizResponse({ kind: "truefalse" }, null), "");
  assert.equal(timespan(3723450), "0001:02:03.45");
});

test("without LMSFinish the session ends with LMSTerminate, and a finish that throws is no page error", () => {
  const storage = store([["quiz", "a", right]]);
  const terminating = fakeAPI({}, { LMSFinish: undefined, LMSTerminate: () => { terminating.calls.push(["terminate"]); return "true"; } });
  new Platform(terminating, DATA, storage, () => {}).finish();
  assert.deepEqual(terminating.calls.slice(-2), [["commit"], ["terminate"]]);
  const broken = fakeAPI();
  for (const name of ["LMSFinish", "LMSCommit"]) {
    Object.defineProperty(broken, name, { get() { throw new Error("platform gone"); } });
  }
  const platform = new Platform(broken, DATA, storage, () => {});
  assert.doesNotThrow(() => platform.finish());
  assert.equal(broken.values["cmi.core.exit"], "suspend"); // what could be sent was
});

test("an interaction the platform refuses is offered again with the next commit, at the same place", () => {
  const storage = store([["quiz", "a", right]]);
  let refuse = true;
  const api = fakeAPI();
  const accept = api.LMSSetValue;
  api.LMSSetValue = (name, value) => (refuse && name.startsWith("cmi.interactions.") ? "false" : accept(name, value));
  const platform = new Platform(api, DATA, storage, () => {});
  platform.report();
  assert.deepEqual(interactionsOf(api), []);
  refuse = false;
  platform.report();
  assert.deepEqual(interactionsOf(api), [["0.id", "quiz-a"], ["0.result", "correct"]]);
});

/** A window and a document as follow() listens to them, and the events a browser sends them. */
function pageEvents() {
  const win = new EventTarget();
  const doc = new EventTarget();
  const show = (persisted) => win.dispatchEvent(Object.assign(new Event("pageshow"), { persisted }));
  return { win, doc, show, hide: () => win.dispatchEvent(new Event("pagehide")), saved: () => doc.dispatchEvent(new Event("work-saved")) };
}

test("a page back from the back-forward cache initialises again and reports what is answered after", () => {
  const storage = store([["quiz", "a", right]]);
  const api = fakeAPI();
  api.LMSInitialize = () => { api.calls.push(["initialize"]); return "true"; };
  const platform = Platform.connect(DATA, { parent: null, API: api }, storage, () => {});
  const page = pageEvents();
  platform.follow(page.doc, page.win);
  page.hide();
  page.show(false); // a first showing is no return
  assert.deepEqual(api.calls.filter((call) => ["initialize", "finish"].includes(call[0])), [["initialize"], ["finish"]]);
  page.show(true);
  storage.setItem(key(LESSON, "quiz", "b"), JSON.stringify({ answer: true, checked: true, state: "right", earned: true }));
  page.saved();
  assert.deepEqual(api.calls.filter((call) => ["initialize", "finish"].includes(call[0])).length, 3);
  assert.deepEqual(interactionsOf(api), [["0.id", "quiz-a"], ["0.result", "correct"], ["1.id", "quiz-b"], ["1.result", "correct"]]);
  assert.equal(api.values["cmi.core.score.raw"], "67");
});

test("a platform that will not initialise the page again: it says so once, in the page's language, and sends nothing", () => {
  const strings = { scorm_not_recorded: "saved only here" };
  const data = { ...DATA, strings };
  const storage = store([["quiz", "a", right]]);
  let sessions = 0;
  const api = fakeAPI({}, { LMSInitialize: () => { sessions += 1; return sessions === 1 ? "true" : "false"; } });
  const told = [];
  const platform = Platform.connect(data, { parent: null, API: api }, storage, (text) => told.push(text));
  const page = pageEvents();
  platform.follow(page.doc, page.win);
  page.hide(); // Back: the page is hidden, its session finished...
  const sent = api.calls.length;
  page.show(true); // ...and shown again, which SCORM's LMSInitialize refuses after LMSFinish
  page.saved();
  page.hide();
  page.show(true);
  assert.deepEqual(told, ["saved only here"]);
  assert.equal(api.calls.length, sent);
  // A reloaded frame: a new page whose LMSInitialize is refused tells the learner the same.
  const reloaded = [];
  assert.equal(Platform.connect(data, { parent: null, API: api }, storage, (text) => reloaded.push(text)), null);
  assert.deepEqual(reloaded, ["saved only here"]);
  assert.equal(api.calls.length, sent);
});

test("every language says in one sentence that the work is saved only in this browser when no platform records it", async () => {
  const { readFile } = await import("node:fs/promises");
  for (const language of ["en", "es", "uk"]) {
    const strings = JSON.parse(await readFile(new URL("../../site/i18n/" + language + ".json", import.meta.url), "utf-8"));
    const text = strings.scorm_not_recorded;
    assert.equal(typeof text, "string", language);
    assert.equal(text.match(/[.!?](\s|$)/g).length, 1, language); // one sentence, ended
    assert.ok(!text.includes("'"), language); // typographic apostrophes only
  }
});
