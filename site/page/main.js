// The page controller: reads the data the build wrote, wires cells, runs them through one runtime client.
import { Cell } from "./cell.js";
import { Exercise } from "./exercise.js";
import { Explorable } from "./explorable.js";
import { appendItems, appendNote } from "./output.js";
import { OfflineControl } from "./offline.js";
import { Quiz } from "./quiz.js";
import { registerServiceWorker } from "./service.js";
import { RuntimeClient, Stopped } from "./runtime-client.js";
import { format, formatBytes } from "./strings.js";
import { WorkControl } from "./work.js";

// How long Stop waits for a loop to end between steps before it ends the worker instead.
const POLITE_STOP_MS = 300;

// Every explorable is driven by the engine's one controller (the page data names its kind "explorable").
const EXPLORABLES = { explorable: Explorable };

/** The index: the offline control and the export/import of the learner's work. */
class IndexPage {
  constructor(data) {
    this.data = data;
    this.strings = data.strings;
    this.language = data.language;
    this.offline = new OfflineControl(document.querySelector(".offline"), this);
    this.work = new WorkControl(document.querySelector(".work"), this);
  }
}

class Page {
  constructor(data, assetsURL) {
    this.data = data;
    this.strings = data.strings;
    this.language = data.language;
    this.assetsURL = assetsURL;
    this.client = new RuntimeClient({
      assetsURL: this.assetsURL,
      version: data.runtime.build,
      runtimeURL: new URL("../runtime/", this.assetsURL).href,
      runtime: data.runtime,
      label: this.strings.cell_label,
      stalledMessage: this.strings.runtime_stalled,
    });
    this.cells = data.cells.map((cell) => new Cell(document.getElementById("cell-" + cell.id), cell, this));
    this.exercises = (data.exercises || []).map(
      (exercise) => new Exercise(document.getElementById("exercise-" + exercise.id), exercise, this));
    this.quizzes = (data.quizzes || []).map(
      (quiz) => new Quiz(document.getElementById("quiz-" + quiz.id), quiz, this));
    this.explorables = (data.explorables || []).map((explorable) => new EXPLORABLES[explorable.kind](
      document.getElementById("explorable-" + explorable.id), explorable, this));
    this.history = new Map(); // cell id -> code of its last successful run, in run order
    this.queue = Promise.resolve();
    this.generation = 0;
    this.running = null;
    this.bar = document.querySelector(".runtime-bar");
    if (!this.bar) return; // a page with nothing to run needs no runtime
    this.barStatus = this.bar.querySelector(".runtime-status");
    this.progress = this.bar.querySelector(".runtime-progress");
    this.stopButton = this.bar.querySelector("[data-action=stop]");
    this.bar.hidden = false;
    this.bar.querySelector("[data-action=run-all]").addEventListener("click", () => this.run(this.cells));
    this.stopButton.addEventListener("click", () => this.stop());
    this.client.addEventListener("progress", (event) => this.showProgress(event.detail));
    this.client.addEventListener("state", (event) => this.showState(event.detail));
    window.addEventListener("pagehide", () => [...this.cells, ...this.exercises].forEach((job) => job.flush()));
    this.fileProtocol = location.protocol === "file:";
    if (this.fileProtocol) this.barStatus.textContent = this.strings.file_protocol;
    else this.watchIntent();
    document.body.dataset.runtime = "idle";
  }

  /** Start loading Python when the learner heads for a cell, not on page load. */
  watchIntent() {
    const start = () => {
      this.client.start().catch(() => {});
      document.removeEventListener("pointerover", onPointer);
      document.removeEventListener("focusin", onPointer);
      window.removeEventListener("scroll", onScroll);
    };
    const onPointer = (event) => {
      if (event.target instanceof Element && event.target.closest(".cell, .exercise, .runtime-bar")) start();
    };
    const onScroll = () => {
      const height = window.innerHeight;
      if ([...this.cells, ...this.exercises].some((job) => {
        const box = job.element.getBoundingClientRect();
        return box.top < height * 1.5 && box.bottom > -height * 0.5;
      })) start();
    };
    document.addEventListener("pointerover", onPointer, { passive: true });
    document.addEventListener("focusin", onPointer);
    window.addEventListener("scroll", onScroll, { passive: true });
  }

  loadEditor() {
    if (!this.editorModule) {
      this.editorModule = import(this.versioned("editor.js")).catch((error) => {
        this.editorModule = null; // a failed download is tried again on the next edit
        throw error;
      });
    }
    return this.editorModule;
  }

  /** The URL of a file loaded after the page, tagged with this build so a newer deploy cannot answer it. */
  versioned(name) {
    return new URL(name + "?v=" + this.data.runtime.build, this.assetsURL).href;
  }

  /** Whether the site has been rebuilt since this page was loaded (the service worker refuses old versions). */
  async outdated() {
    try {
      return (await fetch(this.versioned("editor.js"), { cache: "no-store" })).status === 409;
    } catch (error) {
      return false;
    }
  }

  /** Queue jobs (cells, exercise checks) to run in order, after whatever is already queued. */
  run(jobs) {
    for (const job of jobs) {
      if (this.fileProtocol) {
        appendNote(job.output, this.strings.file_protocol, "warning");
        continue;
      }
      const generation = this.generation;
      job.setStatus("queued");
      this.queue = this.queue.then(() => {
        if (generation !== this.generation) return undefined;
        this.current = this.runOne(job);
        return this.current;
      });
    }
    return this.queue;
  }

  async runOne(job) {
    this.running = job;
    this.stopButton.disabled = false;
    try {
      const result = await job.execute(this.client);
      if (job instanceof Cell) {
        this.history.delete(job.id);
        if (result.replay !== null) this.history.set(job.id, result.replay);
      }
    } catch (error) {
      if (error instanceof Stopped) {
        // the page stopped it on purpose: stop() reports what happened
      } else if (this.client.state === "failed") {
        job.setStatus("failed"); // Python could not start: say why; the next Run tries again
        const message = (await this.outdated()) ? this.strings.course_updated
          : format(this.strings.runtime_failed, { reason: error.message });
        appendNote(job.output, message, "warning");
      } else {
        await this.recover(job, this.strings.crashed);
      }
    } finally {
      if (this.running === job) this.running = null;
      this.stopButton.disabled = this.running === null;
      job.element.dispatchEvent(new CustomEvent("run-finished", { bubbles: true }));
    }
  }

  showOutput(region, items) {
    appendItems(region, items, this.strings);
  }

  /**
   * Stop whatever runs. First politely: a loop that yields (training) ends between two steps and
   * Python keeps everything. If the job has not finished shortly after, end the worker, drop the
   * queue, restart and rebuild the namespace.
   */
  async stop() {
    const job = this.running;
    this.cancelQueued(job);
    if (job) {
      this.client.interrupt();
      const ended = await Promise.race([this.current.then(() => true),
        new Promise((resolve) => setTimeout(() => resolve(false), POLITE_STOP_MS))]);
      if (ended) {
        appendNote(job.output, this.strings.stopped_between_steps, "stopped");
        return undefined;
      }
    }
    return this.hardStop(job);
  }

  /** Forget every queued job but the running one. */
  cancelQueued(job) {
    this.generation += 1;
    for (const each of [...this.cells, ...this.exercises]) {
      if (each !== job && each.element.dataset.state === "queued") each.setStatus("");
    }
  }

  hardStop(job) {
    this.cancelQueued(job);
    this.client.stop();
    if (job) job.stopped();
    this.queue = this.restart(job, null);
    return this.queue;
  }

  async recover(job, message) {
    this.generation += 1;
    this.client.stop();
    job.setStatus("failed");
    this.queue = this.restart(job, message);
    await this.queue;
  }

  /** Start a fresh worker and re-run, in order, the cells that had run successfully. */
  async restart(job, message) {
    const replay = Array.from(this.history.entries());
    const notice = job ? appendNote(job.output, message || this.strings.runtime_starting, "restart") : null;
    try {
      for (const [id, code] of replay) await this.client.run(id, code, null);
    } catch (error) {
      return;
    }
    const ids = replay.map(([id]) => id);
    const text = ids.length ? format(this.strings.restarted, { cells: ids.join(", ") }) : this.strings.restarted_none;
    if (notice) notice.textContent = message ? message + " " + text : text;
    this.barStatus.textContent = text;
    document.dispatchEvent(new CustomEvent("runtime-restarted", { detail: { cells: ids } }));
  }

  showProgress({ loaded, total }) {
    this.progress.hidden = false;
    this.progress.max = total;
    this.progress.value = loaded;
    const text = loaded >= total ? this.strings.runtime_starting : format(this.strings.runtime_loading, {
      loaded: formatBytes(loaded, this.language), total: formatBytes(total, this.language),
    });
    this.barStatus.textContent = text;
  }

  showState({ state, reason }) {
    document.body.dataset.runtime = state;
    if (state === "ready") {
      this.progress.hidden = true;
      this.barStatus.textContent = this.strings.runtime_ready;
    } else if (state === "failed") {
      this.progress.hidden = true;
      this.barStatus.textContent = format(this.strings.runtime_failed, { reason });
    }
  }
}

function main() {
  const island = document.getElementById("page-data");
  if (!island) return;
  const data = JSON.parse(island.textContent);
  const assetsURL = new URL(".", document.querySelector("script[src$='assets/page.js']").src).href;
  registerServiceWorker(assetsURL);
  window.coursePage = data.kind === "index" ? new IndexPage(data) : new Page(data, assetsURL);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main);
else main();
