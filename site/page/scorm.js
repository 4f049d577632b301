// The lesson inside a learning platform (SCORM 1.2). When a frame above the page (or the window that opened it)
// offers the platform's API, the page reports what the learner does: the lesson's status, a score, one
// interaction per quiz and challenge, and the learner's saved work in cmi.suspend_data, which it restores on the
// next launch (on another machine too). Without a platform nothing here runs and the page is as it always was.
//
// The rules (README, "For teachers"):
// - score.raw = round(100 × (quizzes answered right + challenges passed) / (quizzes + challenges)); a quiz answered
//   right before a retry still counts, as the self-check counts it.
// - lesson_status: "passed" once every quiz and challenge the self-check lists names is right or passed (every
//   quiz and challenge of the lesson where no list names one), "completed" once every quiz has been answered and
//   every challenge checked, "incomplete" before; it never goes back down within what the platform recorded.
// - score.raw never drops below what the platform holds: a relaunch sends the larger of the two.
// - interactions: a journal (as SCORM 1.2 keeps them), id "quiz-<key>" or "challenge-<key>": one entry each time a
//   result is new or changed since the platform last heard of it (a challenge's every check, failed ones too),
//   none for results the platform's saved record already holds.
// - every API call is guarded: a function the platform lacks, throws in, or answers "false" to leaves the page working;
//   an interaction the platform refuses is offered again with the next commit. Without LMSFinish (wagtail-lms has
//   only LMSTerminate) the session ends with LMSTerminate.
// - a page shown again from the back-forward cache after its session ended initialises again; a page the platform
//   does not initialise (a reloaded frame, a Back the platform refuses after LMSFinish, as SCORM has it) says in
//   one sentence that its work is saved only in this browser from then on.
import { answerByIds, exerciseIsPassed, fitsSeed, optionIds, quizIsRight } from "./fits.js";
import { pageNotice } from "./notice.js";
import { parseNumber } from "./numbers.js";
import { SEED, isRecord, key, load, localStore, parseKey, savedAt } from "./storage.js";

const STATUSES = ["not attempted", "browsed", "incomplete", "completed", "passed"];
const SUSPEND_LIMIT = 4096; // CMIString4096: what every SCORM 1.2 platform must keep
// What the first record (v 1) could hold; the compact one (v 2) holds the same kinds.
const PRIORITY = ["quiz", "exercise", "revealed", "exercise-code", "cell"];
// When the compact record does not fit, what stays behind in this browser first: cells' edits, then challenges'
// code, then which answers were revealed. Verdicts always travel.
const DROP_ORDER = ["cell", "exercise-code", "revealed"];
const QUIZ_TYPES = { single: "choice", multiple: "choice", truefalse: "true-false", numeric: "numeric" };

/** The platform's SCORM 1.2 API: the standard search up the frames, then from the window that opened this one. */
export function findAPI(win = window) {
  const search = (start) => {
    let current = start;
    for (let hops = 0; current && hops < 500; hops += 1) {
      try {
        if (current.API) return current.API;
      } catch (error) {
        return null; // a frame of another origin: no platform of ours above it
      }
      if (!current.parent || current.parent === current) return null;
      current = current.parent;
    }
    return null;
  };
  return search(win) || (win.opener ? search(win.opener) : null);
}

/** A SCORM 1.2 time span, HHHH:MM:SS.SS, of `ms` milliseconds. */
export function timespan(ms) {
  const total = Math.max(0, ms) / 1000;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const pad = (n, width) => String(n).padStart(width, "0");
  return pad(hours, 4) + ":" + pad(minutes, 2) + ":" + (total % 60).toFixed(2).padStart(5, "0");
}

/** An interaction id (CMIIdentifier: no spaces, ASCII) for a block of `kind` with page id `id`. */
export function interactionId(kind, id) {
  return kind + "-" + String(id).replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 200);
}

/**
 * The learner's answer to a quiz as SCORM 1.2 writes a response of its type, a number as the quiz read it in the
 * language's `decimal` mark; "" when there is none.
 */
export function quizResponse(quiz, answer, decimal = ".") {
  if (quiz.kind === "truefalse") return answer === true ? "t" : answer === false ? "f" : "";
  if (quiz.kind === "numeric") {
    if (typeof answer !== "string") return "";
    const number = parseNumber(answer, decimal); // as the quiz read it: "262.144" in Spanish is 262144
    return number === null ? answer.trim().slice(0, 255) : String(number);
  }
  // A letter per option in source order (a, b, ...): the same for every learner, whatever order each was shown.
  const byIds = answerByIds(quiz, answer);
  const places = (Array.isArray(byIds) ? byIds : byIds === null ? [] : [byIds]).map((id) => optionIds(quiz).indexOf(id));
  const letters = places.filter((n) => n >= 0 && n < 26).map((n) => String.fromCharCode(97 + n));
  return letters.join(",");
}

/** A quiz's saved state in the compact record: 0 not checked, 1 wrong, 2 right, 3 wrong now but right once. */
function quizVerdict(saved) {
  if (saved.checked !== true) return 0;
  if (saved.state === "right") return 2;
  return saved.earned === true ? 3 : 1;
}

/** The saved quiz state that the compact record's [answer, verdict] stands for. */
function quizState([answer, verdict]) {
  const state = { answer, checked: verdict > 0, earned: verdict >= 2 };
  if (verdict > 0) state.state = verdict === 2 ? "right" : "wrong";
  return state;
}

/** The saved exercise state that the compact [passed, attempts, hints] stands for, keeping `local`'s messages. */
function exerciseState([passed, attempts, hints], local) {
  const base = isRecord(local) ? local : {};
  const same = isRecord(base.result) && base.result.passed === passed;
  const result = passed === null ? null : same ? base.result : { passed, results: [] };
  return { ...base, attempts, hints, result };
}

/**
 * The lesson's work as suspend_data, compact: {v: 2, t: seconds of the newest save, q: {quiz key: [answer,
 * verdict]}, c: {challenge key: [passed, attempts, hints]}, r: {key: how revealed}, e: {"cell:key" or
 * "exercise-code:key": code}}. No checker's messages and no lesson code: the page has them. Verdicts always go;
 * when the rest does not fit in `limit` characters, edits go first, then reveals. `left`: the kinds left out.
 */
export function suspendData(lesson, storage = localStore(), limit = SUSPEND_LIMIT) {
  const record = { v: 2, t: 0, q: {}, c: {}, r: {}, e: {} };
  const optional = [];
  for (let index = 0; index < storage.length; index += 1) {
    const name = storage.key(index);
    const parsed = parseKey(name);
    if (!parsed || parsed.lesson !== lesson) continue;
    const saved = load(name, storage);
    if (!isRecord(saved)) continue;
    const at = savedAt(saved);
    if (parsed.kind === "seed" && parsed.id === SEED && fitsSeed(saved)) {
      record.s = saved.seed; // the order of the options travels too (the answers are by option id)
      continue;
    }
    if (parsed.kind === "quiz" && "answer" in saved) record.q[parsed.id] = [saved.answer, quizVerdict(saved)];
    else if (parsed.kind === "exercise") {
      const passed = isRecord(saved.result) ? saved.result.passed === true : null;
      record.c[parsed.id] = [passed, saved.attempts || 0, saved.hints || 0];
    } else if (parsed.kind === "revealed" && typeof saved.by === "string") optional.push([parsed.kind, parsed.id, saved.by]);
    else if (["cell", "exercise-code"].includes(parsed.kind) && typeof saved.code === "string") {
      optional.push([parsed.kind, parsed.id, saved.code]);
    } else continue;
    if (at > record.t * 1000) record.t = Math.ceil(at / 1000);
  }
  optional.sort((a, b) => DROP_ORDER.indexOf(b[0]) - DROP_ORDER.indexOf(a[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const left = new Set();
  for (const [kind, id, value] of optional) {
    const place = kind === "revealed" ? record.r : record.e;
    const name = kind === "revealed" ? id : kind + ":" + id;
    place[name] = value;
    if (JSON.stringify(record).length > limit) {
      delete place[name];
      left.add(kind);
    }
  }
  return { text: JSON.stringify(record), left: DROP_ORDER.filter((kind) => left.has(kind)) };
}

/** {storage name: value} of the work a compact record (v 2) holds for `lesson`, as the page saves it. */
function expand(lesson, data, storage, blocks) {
  const at = new Date((Number(data.t) || 0) * 1000).toISOString();
  const entries = new Map();
  const each = (object, make) => Object.entries(isRecord(object) ? object : {}).forEach(([id, value]) => {
    const made = make(id, value);
    if (made) entries.set(made[0], { ...made[1], at });
  });
  each(data.q, (id, value) => Array.isArray(value) && [key(lesson, "quiz", id), quizState(value)]);
  each(data.c, (id, value) => {
    if (!Array.isArray(value)) return null;
    const name = key(lesson, "exercise", id);
    return [name, exerciseState(value, load(name, storage))];
  });
  each(data.r, (id, by) => [key(lesson, "revealed", id), { by }]);
  if (fitsSeed({ seed: data.s })) entries.set(key(lesson, "seed", SEED), { seed: data.s, at });
  each(data.e, (name, code) => {
    const [kind, id] = [name.slice(0, name.indexOf(":")), name.slice(name.indexOf(":") + 1)];
    if (!["cell", "exercise-code"].includes(kind) || typeof code !== "string") return null;
    return [key(lesson, kind, id), { code, original: (blocks[kind] || {})[id] }];
  });
  return entries;
}

/** The lesson's code each cell and challenge starts from, {cell: {key: code}, "exercise-code": {key: starter}}. */
function lessonCode(page) {
  const cell = Object.fromEntries((page.cells || []).map((one) => [one.key, one.code]));
  const code = Object.fromEntries((page.exercises || []).map((one) => [one.key, one.starter]));
  return { cell, "exercise-code": code };
}

/** What the record tells of `value` (a saved entry of `name`'s kind), to compare with what the platform holds. */
function told(name, value) {
  const { kind } = parseKey(name);
  if (!isRecord(value)) return null;
  if (kind === "quiz") return JSON.stringify([value.answer, quizVerdict(value)]);
  if (kind === "seed") return value.seed;
  if (kind === "exercise") {
    return JSON.stringify([isRecord(value.result) ? value.result.passed === true : null, value.attempts || 0, value.hints || 0]);
  }
  return JSON.stringify(kind === "revealed" ? value.by : value.code);
}

/**
 * Write the work in suspend_data `text` into `storage` under `lesson`'s keys: an entry the browser lacks, or
 * holds older (its `at` stamp) and different, is taken from the platform; newer work in this browser stays.
 * `page` (the page data) gives the lesson's code that restored edits were made from. How many came.
 */
export function restore(lesson, text, storage = localStore(), page = {}) {
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return 0;
  }
  if (!isRecord(data)) return 0;
  let entries;
  if (data.v === 2) entries = expand(lesson, data, storage, lessonCode(page));
  else if (data.v === 1 && Array.isArray(data.work)) {
    entries = new Map(data.work.filter((entry) => Array.isArray(entry) && PRIORITY.includes(entry[0])
      && typeof entry[1] === "string").map((entry) => [key(lesson, entry[0], entry[1]), entry[2]]));
  } else return 0;
  let restored = 0;
  for (const [name, value] of entries) {
    const local = load(name, storage);
    if (local !== null && (savedAt(local) >= savedAt(value) || told(name, local) === told(name, value))) continue;
    try {
      storage.setItem(name, JSON.stringify(value));
      restored += 1;
    } catch (error) {
      return restored; // storage full or blocked: the page starts from what it has
    }
  }
  return restored;
}

/** The lesson's results from saved work: score, status and the interactions to report. */
export function results(data, read) {
  const { lesson } = data;
  const decimal = (data.strings || {}).decimal_separator || ".";
  const quizzes = (data.quizzes || []).map((quiz) => {
    const saved = read(key(lesson, "quiz", quiz.key));
    const right = quizIsRight(quiz, saved, { earned: true });
    const answered = right || (isRecord(saved) && saved.checked === true);
    return { block: quiz, kind: "quiz", right, answered, response: isRecord(saved) ? quizResponse(quiz, saved.answer, decimal) : "" };
  });
  const challenges = (data.exercises || []).map((exercise) => {
    const saved = read(key(lesson, "exercise", exercise.key));
    const right = exerciseIsPassed(saved);
    const answered = isRecord(saved) && isRecord(saved.result);
    const attempts = isRecord(saved) && Number.isInteger(saved.attempts) ? saved.attempts : 0;
    return { block: exercise, kind: "challenge", right, answered, response: "", attempts };
  });
  const all = [...quizzes, ...challenges];
  const named = new Set();
  for (const list of data.self_checks || []) {
    for (const item of list.items || []) {
      (item.quiz || []).forEach((id) => named.add("quiz:" + id));
      (item.exercise || []).forEach((id) => named.add("challenge:" + id));
    }
  }
  const counted = named.size ? all.filter((one) => named.has(one.kind + ":" + one.block.key)) : all;
  const right = all.filter((one) => one.right).length;
  let status = "incomplete";
  if (all.every((one) => one.answered)) status = "completed";
  if (counted.length && counted.every((one) => one.right)) status = "passed";
  return {
    score: all.length ? Math.round((100 * right) / all.length) : null,
    status,
    interactions: all.filter((one) => one.answered).map((one) => ({
      id: interactionId(one.kind, one.block.key),
      type: one.kind === "quiz" ? QUIZ_TYPES[one.block.kind] : "performance",
      result: one.right ? "correct" : "wrong",
      response: one.response,
      ...(one.kind === "challenge" ? { attempts: one.attempts } : {}),
    })),
  };
}

/** The page's link to the platform: restores the work on start, reports on every save, finishes on leave. */
export class Platform {
  /** `notify(text)` tells the learner what did not travel (a notice under the lesson's title by default). */
  constructor(api, data, storage = localStore(), notify = pageNote) {
    this.api = api;
    this.data = data;
    this.storage = storage;
    this.notify = notify;
    this.told = "";
    this.finished = false;
    this.begin();
  }

  /** A session's start: what the platform holds (status, score, journal, saved work), the work restored. */
  begin() {
    const { data, storage } = this;
    this.started = Date.now();
    this.baseStatus = this.get("cmi.core.lesson_status");
    const raw = this.get("cmi.core.score.raw");
    this.baseScore = raw.trim() !== "" && Number.isFinite(Number(raw)) ? Number(raw) : null;
    // Never before what this page wrote in an earlier session, if the platform's count lags behind it.
    this.next = Math.max(this.next || 0, Number(this.get("cmi.interactions._count")) || 0);
    const suspended = this.get("cmi.suspend_data");
    // What the platform already holds of each result: a relaunch journals only what is new or changed.
    this.sent = new Map();
    const earlier = new MemoryRecord();
    restore(data.lesson, suspended, earlier, data);
    for (const one of results(data, (name) => load(name, earlier)).interactions) this.sent.set(one.id, signature(one));
    this.restored = restore(data.lesson, suspended, storage, data);
  }

  /**
   * Connect to the platform above this page, if there is one (restoring its saved work); null otherwise. A
   * platform that does not initialise the page (a reloaded frame after LMSFinish) is told of with `notify`.
   */
  static connect(data, win = window, storage = localStore(), notify = pageNote) {
    const api = findAPI(win);
    if (!api || !offers(api, "LMSInitialize")) return null;
    if (!initialise(api)) {
      notify(notRecorded(data));
      return null;
    }
    return new Platform(api, data, storage, notify);
  }

  /**
   * Report now, then after each save of a block's work; finish the session when the page goes away, and
   * initialise again when the page comes back from the back-forward cache.
   */
  follow(target = document, win = window) {
    target.addEventListener("work-saved", () => this.report());
    win.addEventListener("pagehide", () => this.finish());
    win.addEventListener("pageshow", (event) => {
      if (event.persisted && this.resume()) this.report();
    });
    this.report();
  }

  /**
   * A new session after a finished one: LMSInitialize, then what the platform holds is read again. When the
   * platform refuses, the learner is told their work stays in this browser. Whether a session opened.
   */
  resume() {
    if (!this.finished) return false;
    if (!initialise(this.api)) {
      const text = notRecorded(this.data);
      if (text !== this.told) this.notify(text);
      this.told = text;
      return false;
    }
    this.finished = false;
    this.begin();
    return true;
  }

  /** Call the API's `name` if it has one; its answer as text, "" when it lacks it or throws. */
  call(name, ...args) {
    try {
      if (!offers(this.api, name)) return "";
      const answer = this.api[name](...args);
      return answer === undefined || answer === null ? "" : String(answer);
    } catch (error) {
      return ""; // the platform's fault is not the learner's: the page goes on
    }
  }

  get(name) {
    return this.call("LMSGetValue", name);
  }

  set(name, value) {
    return this.call("LMSSetValue", name, String(value)) === "true";
  }

  /** Send the status, the score, new results, the saved work and the session's time, and commit them. */
  report() {
    if (this.finished) return;
    const outcome = results(this.data, (name) => load(name, this.storage));
    const rank = (status) => STATUSES.indexOf(status);
    let status = rank(outcome.status) >= rank(this.baseStatus) ? outcome.status : this.baseStatus;
    if (this.baseStatus === "failed" && outcome.status !== "passed") status = "failed";
    this.set("cmi.core.lesson_status", status);
    if (outcome.score !== null) {
      this.set("cmi.core.score.min", 0);
      this.set("cmi.core.score.max", 100);
      this.set("cmi.core.score.raw", Math.max(outcome.score, this.baseScore === null ? 0 : this.baseScore));
    }
    for (const one of outcome.interactions) {
      if (this.sent.get(one.id) === signature(one)) continue;
      const prefix = "cmi.interactions." + this.next + ".";
      if (!this.set(prefix + "id", one.id)) continue; // refused: offered again with the next commit
      this.next += 1;
      this.sent.set(one.id, signature(one));
      this.set(prefix + "type", one.type);
      if (one.response) this.set(prefix + "student_response", one.response);
      this.set(prefix + "result", one.result);
    }
    const { text, left } = suspendData(this.data.lesson, this.storage);
    this.set("cmi.suspend_data", text);
    this.tell(left);
    this.set("cmi.core.session_time", timespan(Date.now() - this.started));
    this.call("LMSCommit", "");
  }

  /** Tell the learner, once per change, what of their work stays in this browser only ("" once it all travels). */
  tell(left) {
    const strings = this.data.strings || {};
    const text = left.includes("revealed") ? strings.scorm_edits_reveals_left : left.length ? strings.scorm_edits_left : "";
    if (text === this.told) return;
    this.told = text;
    this.notify(text);
  }

  /** End the session: its time, "suspend" so the next launch resumes, and LMSFinish (LMSTerminate without it). */
  finish() {
    if (this.finished) return;
    this.report();
    this.set("cmi.core.exit", "suspend");
    this.call("LMSCommit", "");
    this.call(offers(this.api, "LMSFinish") ? "LMSFinish" : "LMSTerminate", "");
    this.finished = true;
  }
}

/** LMSInitialize: whether the platform opened a session (not when it answers "false" or throws). */
function initialise(api) {
  try {
    return String(api.LMSInitialize("")) === "true";
  } catch (error) {
    return false; // a platform that throws: the page works as it does on the site
  }
}

/** The sentence that says the platform records nothing of this page, in the page's language. */
function notRecorded(data) {
  return (data.strings || {}).scorm_not_recorded || "";
}

/** Whether the platform's API object has a function `name` (false when even asking throws). */
function offers(api, name) {
  try {
    return typeof api[name] === "function";
  } catch (error) {
    return false;
  }
}

/** What the platform was told of one result: a new interaction goes when this changes. */
function signature(one) {
  return one.result + "|" + one.response + "|" + (one.attempts === undefined ? "" : one.attempts);
}

/** A storage in memory: where the platform's record is read apart from the browser's own. */
class MemoryRecord {
  constructor() {
    this.items = new Map();
  }

  get length() {
    return this.items.size;
  }

  key(index) {
    return Array.from(this.items.keys())[index] ?? null;
  }

  getItem(name) {
    return this.items.has(name) ? this.items.get(name) : null;
  }

  setItem(name, value) {
    this.items.set(name, String(value));
  }
}

/** One notice under the lesson's title, replaced when what it says changes, removed when it says nothing. */
function pageNote(text) {
  const article = typeof document === "undefined" ? null : document.querySelector("main > article.lesson");
  if (!article || !article.querySelector(":scope > h1")) return;
  const shown = article.querySelector(":scope > .saved-notice-scorm");
  if (shown && text) shown.textContent = text;
  else if (shown) shown.remove();
  else if (text) pageNotice(article, text).classList.add("saved-notice-scorm");
}
