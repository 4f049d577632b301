// The page controller: reads the data the build wrote and wires the page's parts together. The run queue
// lives in scheduler.js, the runtime bar in runtime-bar.js, each component in its own module.
import { BuildFiles } from "./build-files.js";
import { Cell } from "./cell.js";
import { watchBuildStatus } from "./dev-status.js";
import { Exercise } from "./exercise.js";
import { Explorable } from "./explorable.js";
import { find } from "./find.js";
import { watchIntent } from "./intent.js";
import { appendItems, appendNote } from "./output.js";
import { OfflineControl } from "./offline.js";
import { Quiz } from "./quiz.js";
import { pageNotice, savedNotice, unsavedNotice } from "./notice.js";
import { RuntimeBar } from "./runtime-bar.js";
import { RuntimeClient } from "./runtime-client.js";
import { Scheduler } from "./scheduler.js";
import { SelfCheck } from "./self-check.js";
import { registerServiceWorker } from "./service.js";
import { blockNames, countTakenBack, sweep, whenUnsaved } from "./storage.js";
import { format } from "./strings.js";
import { WorkControl, collect, download } from "./work.js";

// Where lesson content and cell output sit inside a block: nothing in them is one of the page's own elements.
const CONTENT = ".cell-output, .cell-code, .exercise-prompt, .hints, .solution, .quiz-explanation, legend, "
  + ".quiz-inputs, [data-view], figcaption";

/** The index: the offline control and the export/import of the learner's work. */
class IndexPage {
  constructor(data) {
    this.data = data;
    this.strings = data.strings;
    this.language = data.language;
    this.offline = new OfflineControl(document.querySelector("main > .offline"), this);
    this.work = new WorkControl(document.querySelector("main > .work"), this);
  }
}

/** A lesson page: its components (built as `new Kind(element, data, page)`), one runtime client, one queue. */
class LessonPage {
  constructor(data, assetsURL) {
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
    });
    this.scheduler = new Scheduler(this.client, this.strings, { startFailure: (error) => this.startFailure(error) });
    this.fileProtocol = location.protocol === "file:";
    this.article = document.querySelector("main > article.lesson");
    whenUnsaved(() => unsavedNotice(this.article, this.strings, () => this.exportWork()));
    this.cells = this.build(data.cells, "cell-", () => Cell);
    this.exercises = this.build(data.exercises, "exercise-", () => Exercise);
    this.quizzes = this.build(data.quizzes, "quiz-", () => Quiz);
    this.explorables = this.build(data.explorables, "explorable-", () => Explorable);
    // After the quizzes and exercises: they restore (and re-grade) their saved work, which the lists read.
    this.selfChecks = this.build(data.self_checks, "self-check-", () => SelfCheck);
    this.setAsideStrays();
    const bar = document.querySelector("main > .runtime-bar");
    if (bar) this.wireRuntime(bar);
  }

  /**
   * One component per entry of the page data, on the element the build gave the id prefix + entry id (found in
   * the lesson, outside any content). A block that cannot start says so on itself; the others still work.
   */
  build(entries, prefix, kindOf) {
    const built = [];
    for (const entry of entries || []) {
      const element = find(this.article, "#" + CSS.escape(prefix + entry.id), CONTENT);
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
    if (n) pageNotice(this.article, format(this.strings.saved_strays, { n }));
    const back = countTakenBack(); // set aside earlier, and fitting their blocks again
    if (back) pageNotice(this.article, format(this.strings.saved_taken_back, { n: back }));
  }

  wireRuntime(element) {
    const jobs = [...this.cells, ...this.exercises];
    // Run all runs the cells on the learner's behalf: an answer-first output stays folded.
    this.bar = new RuntimeBar(element, this, {
      runAll: () => this.run(this.cells.filter((cell) => !cell.skipRunAll), { onBehalf: true }), stop: () => this.scheduler.stop(),
    });
    this.bar.follow(this.client);
    this.scheduler.addEventListener("busy", (event) => this.bar.setBusy(event.detail.running));
    this.scheduler.addEventListener("finished", (event) => event.detail.job.element.dispatchEvent(
      new CustomEvent("run-finished", { bubbles: true })));
    this.scheduler.addEventListener("restarted", (event) => {
      this.bar.sayRestarted(event.detail.text);
      document.dispatchEvent(new CustomEvent("runtime-restarted", { detail: { cells: event.detail.cells } }));
    });
    window.addEventListener("pagehide", () => jobs.forEach((job) => job.flush()));
    if (this.fileProtocol) this.bar.say(this.strings.file_protocol);
    else watchIntent(jobs.map((job) => job.element), ".cell, .exercise, .runtime-bar", () => this.client.start().catch(() => {}));
    document.body.dataset.runtime = "idle";
  }

  /** Download the learner's work, with the edits still waiting for their save delay and what only memory holds. */
  exportWork() {
    [...this.cells, ...this.exercises].forEach((job) => job.flush());
    download(collect());
  }

  /**
   * Queue jobs (cells, exercise checks) after whatever is queued, with `options` for their execute (see
   * Scheduler.run); from disk, say how to serve the folder.
   */
  run(jobs, options = {}) {
    if (!this.fileProtocol) return this.scheduler.run(jobs, options);
    for (const job of jobs) appendNote(job.output, this.strings.file_protocol, "warning");
    return Promise.resolve();
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
      : format(this.strings.runtime_failed, { reason: error.message });
  }
}

function main() {
  // The build writes the data last in <body> and the script in <head>: lesson content sits in <main>.
  const island = document.querySelector("body > script#page-data[type='application/json']");
  if (!island) return;
  const data = JSON.parse(island.textContent);
  const assetsURL = new URL(".", document.querySelector("head > script[src$='assets/page.js']").src).href;
  registerServiceWorker(assetsURL);
  watchBuildStatus(data.strings);
  if (data.kind === "index") new IndexPage(data);
  else new LessonPage(data, assetsURL);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main);
else main();
