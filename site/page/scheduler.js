// The run queue of a lesson page: jobs (cells, exercise checks) run one at a time in the order asked,
// Stop ends the running one, and a restarted Python gets the earlier cells replayed. No DOM here: the
// page wires the events below to its elements, and the tests drive it with plain objects.
//
// A job is {id, execute(client) -> {ok, replay?}, setStatus(key), stopped(), note(text, kind) -> {textContent}}.
// `replay` is what a cell reports: its code after a successful run (replayed after a restart), or null after
// a failed one; a job that leaves the shared namespace alone (an exercise check) returns no `replay`.
//
// Events (event.detail): "busy" {running: bool}, "finished" {job}, "restarted" {cells, text}.
import { Stopped } from "./runtime-client.js";
import { format } from "./strings.js";

// How long Stop waits for a loop to end between steps before it ends the worker instead.
export const POLITE_STOP_MS = 300;

export class Scheduler extends EventTarget {
  /**
   * @param {object} client   the runtime client: run(cell, code, onOutput), interrupt(), stop(), state
   * @param {object} strings  the page's UI strings
   * @param {object} options  {politeStopMs, startFailure: async (error) -> the note to show when Python could not start}
   */
  constructor(client, strings, { politeStopMs = POLITE_STOP_MS, startFailure = null } = {}) {
    super();
    this.client = client;
    this.strings = strings;
    this.politeStopMs = politeStopMs;
    this.startFailure = startFailure || (async (error) => format(strings.runtime_failed, { reason: error.message }));
    this.history = new Map(); // cell id -> code of its last successful run, in run order
    this.queued = new Set();
    this.queue = Promise.resolve();
    this.generation = 0;
    this.running = null;
    this.current = null;
  }

  /** Queue jobs to run in order, after whatever is already queued; resolves when the queue is empty. */
  run(jobs) {
    for (const job of jobs) {
      const generation = this.generation;
      job.setStatus("queued");
      this.queued.add(job);
      this.queue = this.queue.then(() => {
        if (generation !== this.generation) return undefined;
        this.queued.delete(job);
        this.current = this.runOne(job);
        return this.current;
      });
    }
    return this.queue;
  }

  async runOne(job) {
    this.running = job;
    this.emit("busy", { running: true });
    try {
      const result = await job.execute(this.client);
      if (result && result.replay !== undefined) {
        this.history.delete(job.id);
        if (result.replay !== null) this.history.set(job.id, result.replay);
      }
    } catch (error) {
      if (error instanceof Stopped) {
        // the page stopped it on purpose: stop() reports what happened
      } else if (this.client.state === "failed") {
        job.setStatus("failed"); // Python could not start: say why; the next Run tries again
        job.note(await this.startFailure(error), "warning");
      } else {
        await this.recover(job, this.strings.crashed);
      }
    } finally {
      if (this.running === job) this.running = null;
      this.emit("busy", { running: this.running !== null });
      this.emit("finished", { job });
    }
  }

  /**
   * Stop whatever runs. First politely: a loop that yields (training) ends between two steps and
   * Python keeps everything. If the job has not finished shortly after, end the worker, drop the
   * queue, restart and rebuild the namespace.
   */
  async stop() {
    const job = this.running;
    this.cancelQueued();
    if (job) {
      this.client.interrupt();
      const ended = await Promise.race([this.current.then(() => true),
        new Promise((resolve) => setTimeout(() => resolve(false), this.politeStopMs))]);
      if (ended) {
        job.note(this.strings.stopped_between_steps, "stopped");
        return undefined;
      }
    }
    return this.hardStop(job);
  }

  /** Forget every queued job but the running one. */
  cancelQueued() {
    this.generation += 1;
    for (const job of this.queued) job.setStatus("");
    this.queued.clear();
  }

  hardStop(job) {
    this.cancelQueued();
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
    const notice = job ? job.note(message || this.strings.runtime_starting, "restart") : null;
    try {
      for (const [id, code] of replay) await this.client.run(id, code, null);
    } catch (error) {
      return;
    }
    const ids = replay.map(([id]) => id);
    const text = ids.length ? format(this.strings.restarted, { cells: ids.join(", ") }) : this.strings.restarted_none;
    if (notice) notice.textContent = message ? message + " " + text : text;
    this.emit("restarted", { cells: ids, text });
  }

  emit(type, detail) {
    this.dispatchEvent(Object.assign(new Event(type), { detail }));
  }
}
