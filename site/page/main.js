// The page controller: reads the data the build wrote and wires the page's parts together. The run queue
// lives in scheduler.js, the runtime bar in runtime-bar.js, each component in its own module.
import { BuildFiles } from "./build-files.js";
import { Cell } from "./cell.js";
import { showProgress } from "./course-progress.js";
import { watchBuildStatus } from "./dev-status.js";
import { showPreferredEditions } from "./editions.js";
import { Exercise } from "./exercise.js";
import { Explorable } from "./explorable.js";
import { find } from "./find.js";
import { watchIntent, whenIdle } from "./intent.js";
import { appendItems, appendNote } from "./output.js";
import { OfflineControl } from "./offline.js";
import { Quiz } from "./quiz.js";
import { pageNotice, savedNotice, unsavedNotice } from "./notice.js";
import { RuntimeBar, startFailureText } from "./runtime-bar.js";
import { RuntimeClient, failureKind } from "./runtime-client.js";
import { Platform } from "./scorm.js";
import { Scheduler, barSubject } from "./scheduler.js";
import { watchScrollers } from "./scrollers.js";
import { SelfCheck } from "./self-check.js";
import { registerServiceWorker, settledServiceWorker } from "./service.js";
import { blockNames, countTakenBack, localStore, markVisit, sweep, whenUnsaved } from "./storage.js";
import { countForm, listForm } from "./plural.js";
import { format } from "./strings.js";
import { WorkControl, collect, download } from "./work.js";

/** The index: each lesson in the reader's language where it can be, the offline control, the learner's work. */
class IndexPage {
  constructor(data) {
    this.data = data;
    this.strings = data.strings;
    this.language = data.language;
    // The index at the site's top opens each lesson in the reader's own language; one in a language keeps to it.
    if (data.preferBrowser) showPreferredEditions(document, data.editions || {}, navigator.languages || [navigator.language]);
    showProgress(document.querySelector("main"), data, localStore());
    // Work saved in a lesson open in another tab: the progress lines and "where you left off" follow it.
    window.addEventListener("storage", () => showProgress(document.querySelector("main"), data, localStore()));
    this.offline = new OfflineControl(document.querySelector("main > .offline"), this);
    this.work = new WorkControl(document.querySelector("main > .work"), this);
  }
}

/** A lesson page: its components (built as `new Kind(element, data, page)`), one runtime client, one queue. */
class LessonPage {
  constructor(data, assetsURL, registered) {
    this.data = data;
    this.strings = data.strings;
    this.language = data.language;
    this.files = new BuildFiles(assetsURL, data.build);
    this.client = new RuntimeClient({
      assetsURL,
      build: data.build,
      libraries: data.libraries,
      runtimeURL: new URL("../runtime/", assetsURL).href,
      runtime: data.runtime,
      label: this.strings.cell_label,
      language: this.language,
      stalledMessage: this.strings.runtime_stalled,
      registered,
    });
    this.scheduler = new Scheduler(this.client, this.strings, { startFailure: (error) => this.startFailure(error) });
    this.fileProtocol = location.protocol === "file:";
    this.article = document.querySelector("main > article.lesson");
    whenUnsaved(() => unsavedNotice(this.article, this.strings, () => this.exportWork()));
    this.platform = Platform.connect(data); // a learning platform's saved work, restored before blocks read theirs
    this.cells = this.build(data.cells, "cell-", () => Cell);
    this.exercises = this.build(data.exercises, "exercise-", () => Exercise);
    // A learner's checked function, which the cells below it may use, is defined again in this visit's Python.
    for (const exercise of this.exercises) {
      if (exercise.joinedCode() !== null) this.scheduler.restore(exercise.id, exercise.joinedCode());
    }
    this.quizzes = this.build(data.quizzes, "quiz-", () => Quiz);
    this.explorables = this.build(data.explorables, "explorable-", () => Explorable);
    // After the quizzes and exercises: they restore (and re-grade) their saved work, which the lists read.
    this.selfChecks = this.build(data.self_checks, "self-check-", () => SelfCheck);
    this.setAsideStrays();
    markVisit(data.lesson); // where the learner left off, for the index
    watchScrollers();
    const bar = document.querySelector("main > .runtime-bar");
    if (bar) this.wireRuntime(bar);
    if (this.platform) this.platform.follow();
  }

  /**
   * One component per entry of the page data, on the element the build gave the id prefix + entry id (found in
   * the lesson, outside any content). A block that cannot start says so on itself; the others still work.
   */
  build(entries, prefix, kindOf) {
    const built = [];
    for (const entry of entries || []) {
      const element = find(this.article, "#" + CSS.escape(prefix + entry.id));
      if (!element) continue;
      try {
        built.push(new (kindOf(entry))(element, entry, this));
      } catch (error) {
        console.error(error);
        savedNotice(element, format(this.strings.block_failed, { reason: error.message }));
      }
    }
    return built;
  }

  /** Set aside saved work of this lesson that no block on the page owns, and say how much at the top. */
  setAsideStrays() {
    const keys = (entries) => (entries || []).map((entry) => entry.key);
    const blocks = { cell: keys(this.data.cells), quiz: keys(this.data.quizzes), exercise: keys(this.data.exercises) };
    const n = sweep(this.data.lesson, blockNames(this.data.lesson, blocks));
    const counted = (key, count) => format(countForm(this.strings, key, count, this.language), { n: count });
    if (n) pageNotice(this.article, counted("saved_strays", n));
    const back = countTakenBack(); // set aside earlier, and fitting their blocks again
    if (back) pageNotice(this.article, counted("saved_taken_back", back));
  }

  wireRuntime(element) {
    const jobs = [...this.cells, ...this.exercises];
    // Run all runs the cells on the learner's behalf: an answer-first output stays folded.
    this.bar = new RuntimeBar(element, this, {
      runAll: () => this.run(this.cells.filter((cell) => !cell.skipRunAll), { onBehalf: true, release: true }), stop: () => this.scheduler.stop(),
    });
    this.bar.follow(this.client);
    this.scheduler.addEventListener("busy", (event) => this.bar.setBusy(event.detail.running));
    // The bar says what Python is doing (Run all, cells run first): the job it runs and how many wait, then
    // "ready" once nothing is left (unless a restart's message has replaced what it was doing).
    let saysDoing = false;
    this.scheduler.addEventListener("started", (event) => {
      saysDoing = true;
      this.bar.say(this.doing(event.detail.job));
    });
    this.scheduler.addEventListener("idle", () => { // after the last job, even one skipped without starting
      if (!saysDoing) return;
      saysDoing = false;
      if (this.client.state === "ready") this.bar.say(this.strings.runtime_ready);
    });
    // detail.onBehalf: the page ran this cell first for a later one the learner asked for (see Scheduler.run).
    this.scheduler.addEventListener("finished", (event) => event.detail.job.element.dispatchEvent(
      new CustomEvent("run-finished", { bubbles: true, detail: { onBehalf: event.detail.onBehalf } })));
    this.scheduler.addEventListener("restarting", ({ detail: { cells, message } }) => {
      saysDoing = false;
      // After a crash the message says what happened; after Stop, why Python loads again and what comes back.
      const stop = cells.length ? format(listForm(this.strings, "restarting", cells.length), { cells: cells.join(", ") })
        : this.strings.restarting_none;
      this.bar.sayRestarting(message || stop);
    });
    this.scheduler.addEventListener("restarted", (event) => {
      saysDoing = false;
      this.bar.sayRestarted(event.detail.text);
      document.dispatchEvent(new CustomEvent("runtime-restarted", { detail: { cells: event.detail.cells } }));
    });
    window.addEventListener("pagehide", () => jobs.forEach((job) => job.flush()));
    if (this.fileProtocol) this.bar.say(this.strings.file_protocol);
    document.body.dataset.runtime = "idle";
    if (!this.fileProtocol) this.armStart();
  }

  /** Start Python on the learner's intent, or as soon as the page is idle when the runtime is already cached. */
  async armStart() {
    const start = () => this.client.start().catch(() => {});
    // The bar's own buttons start Python by running; a tap on its sentence starts nothing.
    watchIntent(".cell, .exercise", start);
    // Warm only through this build's service worker: one that a newer build is replacing would serve the whole
    // start, and its pending answers would keep the newer one waiting (sw.js, RUNTIME_BYTES).
    // The service worker's update (a request for sw.js) goes on while the cache is looked at.
    const settling = settledServiceWorker();
    const stored = await this.client.cacheState();
    performance.mark("course-cache-looked");
    this.bar.sayDownload(stored.bytes); // the build stated the whole runtime's size
    const cached = stored.complete && await settling;
    document.body.dataset.runtimeCached = String(cached); // tests wait on the decision
    performance.mark("course-start-decided"); // benchmarks/peers.py reports when each step of the warm start ended
    if (cached) whenIdle(() => {
      performance.mark("course-idle-start");
      start();
    });
  }

  /** Download the learner's work, with the edits still waiting for their save delay and what only memory holds. */
  exportWork() {
    [...this.cells, ...this.exercises].forEach((job) => job.flush());
    download(collect());
  }

  /**
   * What the runtime bar says while `job` runs: a cell or a challenge's check (a hidden cell by the visible job it
   * prepares, never by its own number), and how many visible jobs wait: a sentence, which the bar wraps on a phone.
   */
  doing(job) {
    const { job: named, waiting } = barSubject(job, this.scheduler.queued);
    const queue = waiting ? format(this.strings.runtime_waiting, { n: waiting }) : "";
    if (!named) return format(this.strings.runtime_preparing, { queue }); // nothing the learner can find to name
    return this.cells.includes(named) ? format(this.strings.runtime_running_cell, { n: named.name, queue })
      : this.exercises.includes(named) ? format(this.strings.runtime_running_check, { name: named.id, queue })
        : format(this.strings.runtime_running_explorable, { queue });
  }

  /**
   * Queue jobs (cells, exercise checks) after whatever is queued, with `options` for the scheduler (onBehalf:
   * the page runs them for the learner, as Run all does); from disk, say how to serve the folder. Cells above
   * the first asked-for cell that have not run in this visit run first, on the learner's behalf (as a
   * notebook's "run all above"), and the asked-for cell says so, or which of them failed.
   */
  async run(jobs, options = {}) {
    if (this.fileProtocol) {
      for (const job of jobs) appendNote(job.output, this.strings.file_protocol, "warning");
      return;
    }
    const earlier = this.notRunAbove(jobs);
    const asked = jobs[0];
    if (this.cells.includes(asked)) {
      runNote(asked, "");
      this.skippedNote(asked, this.cellsAbove(jobs).filter((cell) => this.stoppedAsItStands(cell)));
    }
    const failed = await this.scheduler.run(jobs, { ...options, earlier });
    if (!earlier.length) return;
    if (failed) runNote(asked, this.strings.earlier_failed, failed);
    else if (asked.element.dataset.state === "done" || asked.element.dataset.state === "failed") {
      // Only the cells the learner can see are named: a removed one (named "2.1") has no label to find.
      const shown = earlier.filter((cell) => !cell.name.includes(".")).map((cell) => cell.name);
      const note = shown.length === 1 ? this.strings.ran_earlier_one : this.strings.ran_earlier;
      if (shown.length) runNote(asked, format(note, { cells: shown.join(", ") }));
    }
  }

  /**
   * The cells above the first cell among `jobs` that it may need and that have not run in this visit: not run
   * successfully in this Python, not queued, not meant to raise, and not failed as they stand now (the learner
   * saw that failure; running them again would only block the cell asked for).
   */
  notRunAbove(jobs) {
    const raises = new Set((this.data.cells || []).filter((cell) => cell.raises).map((cell) => cell.id));
    const { history, queued } = this.scheduler;
    return this.cellsAbove(jobs).filter((cell) => !history.has(cell.name) && !queued.has(cell)
      && this.scheduler.running !== cell && !raises.has(cell.id)
      && !(cell.element.dataset.state === "failed" && cell.code() === cell.lastRun)
      && !this.stoppedAsItStands(cell));
  }

  /** The cells above the first cell among `jobs` (none if no cell is among them). */
  cellsAbove(jobs) {
    const first = Math.min(...jobs.map((job) => this.cells.indexOf(job)).filter((index) => index >= 0));
    return Number.isFinite(first) ? this.cells.slice(0, first) : [];
  }

  /**
   * Whether Stop ended `cell` and its code is still what was stopped: run again unasked, it would only loop
   * again (an edit, or Reset, makes it a cell to run first again). Never a hidden cell: the learner can neither
   * find nor run it, so the page runs it again first, as the first time.
   */
  stoppedAsItStands(cell) {
    return !cell.hidden && this.scheduler.wasStopped(cell) && cell.code() === cell.lastRun;
  }

  /**
   * Say on `cell` that the stopped cells above were not run first, that what they define may be incomplete, and
   * offer to run each (the learner's own Run); no stopped cell above removes the note.
   */
  skippedNote(cell, skipped) {
    let note = cell.element.querySelector(".skip-note"); // above the output, in its fold if it has one
    if (!skipped.length) {
      if (note) note.remove();
      return;
    }
    if (!note) {
      note = document.createElement("div");
      note.className = "skip-note";
      note.setAttribute("role", "note");
      cell.output.before(note);
    }
    note.replaceChildren(...skipped.map((stopped) => {
      const line = document.createElement("p");
      fillTemplate(line, this.strings.earlier_stopped, stopped);
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.action = "run-stopped";
      button.textContent = format(this.strings.run_stopped, { n: stopped.name });
      button.addEventListener("click", () => this.run([stopped]));
      line.append(" ", button);
      return line;
    }));
  }

  showOutput(region, items) {
    appendItems(region, items, this.strings);
  }

  loadEditor() {
    return this.files.loadEditor();
  }

  outdated() {
    return this.files.outdated();
  }

  /** What to tell the learner when Python could not start: a newer deploy, or the reason. */
  async startFailure(error) {
    return (await this.outdated()) ? this.strings.course_updated
      : startFailureText(this.strings, { kind: failureKind(error), reason: error.message });
  }
}

/**
 * Say on `cell`, above its output (which stays the cell's own), which cells above ran first or failed;
 * every "{cell}" of `template` becomes a link to cell `id`. An empty template removes the note.
 */
function runNote(cell, template, other) {
  let note = cell.element.querySelector(".run-note"); // above the output, in its fold if it has one
  if (!template) {
    if (note) note.remove();
    return;
  }
  if (!note) {
    note = document.createElement("p");
    note.className = "run-note";
    note.setAttribute("role", "note");
    cell.output.before(note);
  }
  note.replaceChildren();
  fillTemplate(note, template, other);
}

/** Append `template` to `element`, every "{cell}" of it a link to cell `other`. */
function fillTemplate(element, template, other) {
  template.split("{cell}").forEach((part, index) => {
    if (index) {
      const link = document.createElement("a");
      link.href = "#cell-" + other.id;
      link.textContent = other.name;
      element.append(link);
    }
    element.append(part);
  });
}

function main() {
  // The build writes the data last in <body> and the script in <head>: lesson content sits in <main>.
  const island = document.querySelector("body > script#page-data[type='application/json']");
  if (!island) return;
  const data = JSON.parse(island.textContent);
  const assetsURL = new URL(".", document.querySelector("head > script[src$='assets/page.js']").src).href;
  // A SCORM package has no sw.js: the platform serves it under a path of its own (py/coursebuild/scorm.py).
  const registered = document.body.dataset.package ? Promise.resolve(false) : registerServiceWorker(assetsURL);
  registered.then((ok) => ok && performance.mark("course-registered"));
  watchBuildStatus(data.strings);
  if (data.kind === "index") new IndexPage(data);
  else new LessonPage(data, assetsURL, registered);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main);
else main();
