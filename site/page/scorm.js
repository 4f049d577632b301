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
// - interactions: one per quiz or challenge with a result, numbered in the order this session first reports them
//   (SCORM 1.2 interactions are a journal: each launch adds its own).
import { exerciseIsPassed, quizIsRight } from "./fits.js";
import { isRecord, key, load, localStore, parseKey, savedAt } from "./storage.js";

const STATUSES = ["not attempted", "browsed", "incomplete", "completed", "passed"];
const SUSPEND_LIMIT = 4096; // CMIString4096: what every SCORM 1.2 platform must keep
// Results first: when the work does not fit, edited code is what stays behind in this browser only.
const PRIORITY = ["quiz", "exercise", "revealed", "exercise-code", "cell"];
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

/** The learner's answer to a quiz as SCORM 1.2 writes a response of its type; "" when there is none. */
export function quizResponse(quiz, answer) {
  if (quiz.kind === "truefalse") return answer === true ? "t" : answer === false ? "f" : "";
  if (quiz.kind === "numeric") return typeof answer === "string" ? answer.trim().replace(",", ".").slice(0, 255) : "";
  const letters = (Array.isArray(answer) ? answer : answer === null ? [] : [answer])
    .filter((n) => Number.isInteger(n) && n >= 0 && n < 26).map((n) => String.fromCharCode(97 + n));
  return letters.join(",");
}

/**
 * The lesson's work as suspend_data: {v: 1, work: [[kind, id, value], ...]}, results first, with as many
 * entries as fit in `limit` characters; `storage` holds them under the course's keys.
 */
export function suspendData(lesson, storage = localStore(), limit = SUSPEND_LIMIT) {
  const entries = [];
  for (let index = 0; index < storage.length; index += 1) {
    const parsed = parseKey(storage.key(index));
    if (!parsed || parsed.lesson !== lesson || !PRIORITY.includes(parsed.kind)) continue;
    try {
      entries.push([parsed.kind, parsed.id, JSON.parse(storage.getItem(storage.key(index)))]);
    } catch (error) {
      continue; // unreadable: the page sets it aside itself
    }
  }
  entries.sort((a, b) => PRIORITY.indexOf(a[0]) - PRIORITY.indexOf(b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  const kept = [];
  let text = JSON.stringify({ v: 1, work: kept });
  for (const entry of entries) {
    const next = JSON.stringify({ v: 1, work: [...kept, entry] });
    if (next.length > limit) continue;
    kept.push(entry);
    text = next;
  }
  return { text, left: entries.length - kept.length };
}

/**
 * Write the work in suspend_data `text` into `storage` under `lesson`'s keys: an entry the browser lacks, or
 * holds older (its `at` stamp), is taken from the platform; newer work in this browser stays. How many came.
 */
export function restore(lesson, text, storage = localStore()) {
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return 0;
  }
  if (!isRecord(data) || data.v !== 1 || !Array.isArray(data.work)) return 0;
  let restored = 0;
  for (const entry of data.work) {
    if (!Array.isArray(entry) || !PRIORITY.includes(entry[0]) || typeof entry[1] !== "string") continue;
    const name = key(lesson, entry[0], entry[1]);
    const local = load(name, storage);
    if (local !== null && savedAt(local) >= savedAt(entry[2])) continue;
    try {
      storage.setItem(name, JSON.stringify(entry[2]));
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
  const quizzes = (data.quizzes || []).map((quiz) => {
    const saved = read(key(lesson, "quiz", quiz.key));
    const right = quizIsRight(quiz, saved, { earned: true });
    const answered = right || (isRecord(saved) && saved.checked === true);
    return { block: quiz, kind: "quiz", right, answered, response: isRecord(saved) ? quizResponse(quiz, saved.answer) : "" };
  });
  const challenges = (data.exercises || []).map((exercise) => {
    const saved = read(key(lesson, "exercise", exercise.key));
    const right = exerciseIsPassed(saved);
    const answered = isRecord(saved) && isRecord(saved.result);
    return { block: exercise, kind: "challenge", right, answered, response: "" };
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
      id: interactionId(one.kind, one.block.id),
      type: one.kind === "quiz" ? QUIZ_TYPES[one.block.kind] : "performance",
      result: one.right ? "correct" : "wrong",
      response: one.response,
    })),
  };
}

/** The page's link to the platform: restores the work on start, reports on every save, finishes on leave. */
export class Platform {
  constructor(api, data, storage = localStore()) {
    this.api = api;
    this.data = data;
    this.storage = storage;
    this.started = Date.now();
    this.numbers = new Map(); // interaction id → its number in this session
    this.finished = false;
    this.baseStatus = api.LMSGetValue("cmi.core.lesson_status");
    this.base = Number(api.LMSGetValue("cmi.interactions._count")) || 0;
    this.restored = restore(data.lesson, api.LMSGetValue("cmi.suspend_data") || "", storage);
  }

  /** Connect to the platform above this page, if there is one (restoring its saved work); null otherwise. */
  static connect(data, win = window) {
    const api = findAPI(win);
    if (!api || typeof api.LMSInitialize !== "function") return null;
    if (String(api.LMSInitialize("")) !== "true") return null;
    return new Platform(api, data);
  }

  /** Report now, then after each save of a block's work, and finish the session when the page goes away. */
  follow(target = document, win = window) {
    target.addEventListener("work-saved", () => this.report());
    win.addEventListener("pagehide", () => this.finish());
    this.report();
  }

  set(name, value) {
    return String(this.api.LMSSetValue(name, String(value))) === "true";
  }

  /** Send the status, the score, the interactions and the saved work, and ask the platform to keep them. */
  report() {
    if (this.finished) return;
    const outcome = results(this.data, (name) => load(name, this.storage));
    const rank = (status) => STATUSES.indexOf(status);
    const status = rank(outcome.status) >= rank(this.baseStatus) ? outcome.status : this.baseStatus;
    this.set("cmi.core.lesson_status", status);
    if (outcome.score !== null) {
      this.set("cmi.core.score.min", 0);
      this.set("cmi.core.score.max", 100);
      this.set("cmi.core.score.raw", outcome.score);
    }
    for (const one of outcome.interactions) {
      if (!this.numbers.has(one.id)) this.numbers.set(one.id, this.base + this.numbers.size);
      const prefix = "cmi.interactions." + this.numbers.get(one.id) + ".";
      this.set(prefix + "id", one.id);
      this.set(prefix + "type", one.type);
      if (one.response) this.set(prefix + "student_response", one.response);
      this.set(prefix + "result", one.result);
    }
    this.set("cmi.suspend_data", suspendData(this.data.lesson, this.storage).text);
    this.api.LMSCommit("");
  }

  /** End the session: its time, "suspend" so the next launch resumes, and LMSFinish. */
  finish() {
    if (this.finished) return;
    this.report();
    this.set("cmi.core.session_time", timespan(Date.now() - this.started));
    this.set("cmi.core.exit", "suspend");
    this.api.LMSCommit("");
    this.api.LMSFinish("");
    this.finished = true;
  }
}
