// The run queue of a lesson page: jobs (cells, exercise checks) run one at a time in the order asked,
// Stop ends the running one, and a restarted Python gets the earlier cells replayed. No DOM here: the
// page wires the events below to its elements, and the tests drive it with plain objects.
//
// A job is {id, execute(client, options) -> {ok, replay?, stopped?}, setStatus(key), stopped(), note(text, kind) ->
// {textContent}}. `replay` is what a cell reports: its code after a successful run (replayed after a restart), or
// null after a failed one; a job that leaves the shared namespace alone (an exercise check) returns no `replay`.
// `stopped` says Stop ended it (by interrupt or between two steps): it stays in `stoppedJobs` until it next runs.
// A hidden job (`hidden`: a cell the lesson removed, its bookkeeping) may name the visible job it `follows`: it runs
// only once that one has run to its end, and its own failure never stops the cells the learner asked for.
//
// execute's options: onBehalf (see run), stopAsked() (whether Stop was pressed while it ran).
//
// Events (event.detail): "busy" {running: bool}, "started" {job, onBehalf} (Python is ready and the job begins),
// "finished" {job, onBehalf}, "skipped" {job, after} (a hidden job not run: `after`, the job it follows, was stopped
// or failed), "idle" {} (the queue is empty), "restarting" {cells, message}, "restarted" {cells, text}.
import { startFailureText } from "./runtime-bar.js";
import { Stopped, failureKind } from "./runtime-client.js";
import { listForm } from "./plural.js";
import { format } from "./strings.js";

// How long Stop waits for a running loop to see the request (or, once interrupted, to end) before it ends
// the worker instead.
export const POLITE_STOP_MS = 300;
// How long Stop waits for the worker to see a polite request (it can only while Python waits between steps)
// before it interrupts the code instead. Training loops yield at least every 0.1 s.
export const INTERRUPT_AFTER_MS = 150;
// How long a loop that has seen the request may take to finish its current step.
export const POLITE_GRACE_MS = 2000;
// How long interrupted code may take to end before the worker is ended instead: a shared buffer is seen within
// milliseconds, a service worker's flag at the worker's next poll (0.1 s); a loaded machine is slower. Only
// code that never returns to the interpreter (one long NumPy call) waits this long for nothing.
export const INTERRUPTED_STOP_MS = 1000;

/**
 * What the runtime bar names while `job` runs, and how many of the learner's jobs wait behind it (`queued`, in run
 * order). A hidden job is the page's bookkeeping for the visible job queued after it: the bar names that one, which
 * it then does not count as waiting ("Cell 16: running…" while hidden cell 15.1 runs for cell 16). Null when no
 * visible job is queued after a hidden one (the bar then says it prepares).
 */
export function barSubject(job, queued) {
  const visible = [...queued].filter((other) => !other.hidden);
  if (!job.hidden) return { job, waiting: visible.length };
  return { job: visible.length ? visible[0] : null, waiting: Math.max(visible.length - 1, 0) };
}

export class Scheduler extends EventTarget {
  /**
   * @param {object} client   the runtime client: start(), run(cell, code, onOutput), requestStop(waitMs) -> seen,
   *                          raiseInterrupt() -> whether it could, canInterrupt (false where it cannot), terminate(), and
   *                          session (a new number whenever a fresh Python has become ready)
   * @param {object} strings  the page's UI strings
   * @param {object} options  {politeStopMs, startFailure: async (error) -> the note to show when Python could not start}
   */
  constructor(client, strings, { politeStopMs = POLITE_STOP_MS, interruptAfterMs = INTERRUPT_AFTER_MS,
    politeGraceMs = POLITE_GRACE_MS, interruptedStopMs = INTERRUPTED_STOP_MS, startFailure = null } = {}) {
    super();
    this.client = client;
    this.strings = strings;
    this.politeStopMs = politeStopMs;
    this.interruptAfterMs = interruptAfterMs;
    this.politeGraceMs = politeGraceMs;
    this.interruptedStopMs = interruptedStopMs;
    this.startFailure = startFailure
      || (async (error) => startFailureText(strings, { kind: failureKind(error), reason: error.message }));
    this.history = new Map(); // cell name -> code of its last successful run, in run order
    this.restored = new Map(); // exercise name -> its code checked in an earlier visit, for the first Python
    this.hiddenNames = new Set(); // the names of hidden cells in the history, which no message gives
    this.stoppedJobs = new Set(); // jobs Stop ended while they ran, until they next run to their end
    this.failedJobs = new Set(); // jobs whose last run raised (or could not start)
    this.session = 0; // the client's session that holds the history's variables
    this.queued = new Set();
    this.queue = Promise.resolve();
    this.generation = 0;
    this.running = null;
    this.current = null;
    this.restarting = null; // the restart in progress, if any
    this.stopping = null; // the stop in progress, if any
  }

  /**
   * Queue jobs to run in order, after whatever is already queued. `earlier` jobs run first, on the learner's
   * behalf (cells above the ones asked for that have not run in this visit): the first of them that fails
   * leaves the rest of this request unrun. `onBehalf` says the page runs all of `jobs` for the learner (Run all):
   * it goes to each job's execute, as it does for `earlier` ones. `release` (Run all): when their turn comes,
   * the names the cells among `jobs` bind are unbound first, so their previous run's arrays are freed before
   * the new ones are made. A hidden job whose visible one was stopped or failed is skipped. Resolves, once the
   * queue is empty, to the earlier visible job that failed, or null.
   */
  run(jobs, { earlier = [], onBehalf = false, release = false } = {}) {
    const generation = this.generation;
    let failed = null;
    const blocking = new Set(); // the visible jobs whose hidden ones were skipped
    if (release) this.queue = this.queue.then(() => generation === this.generation && this.release(jobs));
    for (const job of [...earlier, ...jobs]) {
      const forLearner = !onBehalf && !earlier.includes(job);
      job.setStatus("queued");
      this.queued.add(job);
      this.queue = this.queue.then(async () => {
        if (generation !== this.generation) return;
        this.queued.delete(job);
        const after = failed ? null : this.blockedBy(job);
        if (failed || after) {
          job.setStatus("");
          if (after) {
            blocking.add(after);
            this.emit("skipped", { job, after });
          }
          else if (job.notRun) job.notRun();
          return;
        }
        this.current = this.runOne(job, { onBehalf: !forLearner });
        if (!(await this.current) && earlier.includes(job) && !job.hidden) failed = job;
      });
    }
    const asked = onBehalf ? null : jobs[0];
    this.queue = this.queue.then(() => {
      if (asked && generation === this.generation) this.sayBlocking(asked, blocking);
      if (!this.queued.size && !this.running) this.emit("idle", {});
    });
    return this.queue.then(() => failed);
  }

  /** Say on the job the learner asked for, once it has run, which visible cell to run to the end, and why. */
  sayBlocking(asked, blocking) {
    for (const after of blocking) {
      if (after === asked) continue;
      const key = this.stoppedJobs.has(after) ? "hidden_after_stopped" : "hidden_after_failed";
      asked.note(format(this.strings[key], { n: after.name === undefined ? after.id : after.name }), "stopped");
    }
  }

  /**
   * The visible job that a hidden `job` follows, if that one was stopped or raised (unless it is meant to raise):
   * what the hidden job reads is then missing or incomplete, and running it would only show the learner a
   * traceback of a cell they cannot see. Null when `job` may run.
   */
  blockedBy(job) {
    const after = job.hidden ? job.follows : null;
    if (!after) return null;
    const failed = this.failedJobs.has(after) && !after.raises;
    return this.stoppedJobs.has(after) || failed ? after : null;
  }

  /** Unbind what the cells among `jobs` bind, in a Python that is ready (a fresh one has nothing to free). */
  async release(jobs) {
    const codes = jobs.filter((job) => typeof job.code === "function").map((job) => job.code());
    if (this.client.state !== "ready" || !codes.length) return;
    try {
      await this.client.release(codes);
    } catch (error) {
      // nothing freed: the cells run as they would have, the previous arrays freed as each cell rebinds them
    }
  }

  /**
   * Run one job; resolves to whether it ran and succeeded. `onBehalf` (passed on to job.execute and to the
   * "finished" event) says the learner did not ask for this job itself: a cell that keeps its output folded
   * until the learner runs it keeps it folded then.
   */
  async runOne(job, { onBehalf = false } = {}) {
    this.running = job;
    this.emit("busy", { running: true });
    let ok = false;
    let executing = false;
    try {
      if (await this.ready(job)) {
        this.emit("started", { job, onBehalf });
        executing = true;
        // stopAsked: whether Stop was pressed while it ran (a KeyboardInterrupt without it is the learner's own)
        const result = await job.execute(this.client, { onBehalf, stopAsked: () => this.stopping !== null });
        ok = Boolean(result && result.ok);
        if (ok) this.failedJobs.delete(job);
        else this.failedJobs.add(job);
        if (result && result.stopped) this.stoppedJobs.add(job);
        else this.stoppedJobs.delete(job);
        if (result && result.replay !== undefined) {
          const name = job.name === undefined ? job.id : job.name; // a cell's name, as the learner reads it
          this.history.delete(name);
          // A hidden cell Stop ended has not run to its end: the learner cannot run it, so it stays a cell the
          // page runs first again (and a restart does not replay half of it).
          if (result.replay !== null && !(job.hidden && result.stopped)) this.history.set(name, result.replay);
          if (job.hidden) this.hiddenNames.add(name);
        }
      }
    } catch (error) {
      // Python was running this job and is gone (a fatal error, out of memory, a dead worker), unless
      // the page stopped it on purpose, in which case stop() reports what happened.
      if (error instanceof Stopped && executing) this.stoppedJobs.add(job);
      if (!(error instanceof Stopped)) await this.recover(job, this.strings.crashed);
    } finally {
      if (this.running === job) this.running = null;
      this.emit("busy", { running: this.running !== null });
      this.emit("finished", { job, onBehalf });
    }
    return ok;
  }

  /** Whether Stop ended `job` the last time it ran (a page does not run it again unasked: it would loop again). */
  wasStopped(job) {
    return this.stoppedJobs.has(job);
  }

  /**
   * Start Python for a job. A Python other than the one the earlier cells ran in gets them replayed first,
   * saying so; one that cannot start fails the job with the reason (the next Run tries again).
   */
  async ready(job) {
    try {
      await this.client.start();
    } catch (error) {
      if (error instanceof Stopped) return false;
      job.setStatus("failed");
      job.note(await this.startFailure(error), "warning");
      if (job.notRun) job.notRun(); // its output is still the build's
      return false;
    }
    if (this.client.session === this.session) return true;
    if (this.history.size === 0) { // the page's first Python (or one that had nothing to bring back)
      await this.defineRestored();
      this.session = this.client.session;
      return true;
    }
    if (await this.replay(job.note(this.strings.runtime_lost, "restart"), this.strings.runtime_lost)) return true;
    job.setStatus(""); // it did not run: its note says why
    if (job.notRun) job.notRun();
    return false;
  }

  /**
   * Have the first Python define `code` under `name` before any job runs: an exercise's code that a check joined
   * to the page's Python in an earlier visit (exercise.js), so that the cells using the learner's function find
   * it after a reload or an import, as they did before.
   */
  restore(name, code) {
    if (!this.history.has(name)) this.restored.set(name, code);
  }

  /**
   * Define the restored code in a fresh Python, quietly: it ran in that visit's Python already. What defines
   * joins the history, which later restarts replay; what raises is dropped (the exercise's next Check joins it
   * again). Stop pressed meanwhile ends the worker: what is left waits for the next start.
   */
  async defineRestored() {
    for (const [name, code] of Array.from(this.restored.entries())) {
      const result = await this.client.run(name, code, null);
      this.restored.delete(name);
      if (result.ok && !this.history.has(name)) this.history.set(name, code);
    }
  }

  /**
   * Stop whatever runs, keeping Python's variables whenever the code lets us:
   * 1. politely: a loop that yields (training) sees the request and ends between two steps;
   * 2. by interrupt, where the client can (a shared buffer on a cross-origin isolated page, else a flag kept
   *    by the service worker): KeyboardInterrupt in the running code, for code that never yields
   *    (`while True: pass`), or that yields but does not check;
   * 3. only if neither ended the job: end the worker, drop the queue, restart and replay the earlier cells.
   * Pressed again while a stop is under way, it is the same stop: one note, at most one restart.
   */
  stop() {
    if (!this.stopping) this.stopping = this.stopRunning().finally(() => { this.stopping = null; });
    return this.stopping;
  }

  async stopRunning() {
    const job = this.running;
    this.cancelQueued();
    if (job && this.client.state === "loading") return this.stopLoading(job);
    if (job) {
      const seen = await this.client.requestStop(this.client.canInterrupt ? this.interruptAfterMs : this.politeStopMs);
      let interrupted = !seen && this.client.raiseInterrupt();
      // A loop that saw the request ends at its next step, however busy the machine; code that did not see
      // it ends soon (interrupted) or never.
      let ended = await this.endsWithin(seen ? this.politeGraceMs : interrupted ? this.interruptedStopMs : 0);
      if (!ended && seen && this.client.raiseInterrupt()) {
        interrupted = true;
        ended = await this.endsWithin(this.interruptedStopMs);
      }
      if (ended) { // a job that finished anyway, whatever Stop did, gets no note
        if (this.stoppedJobs.has(job)) {
          job.note(interrupted ? this.strings.stopped_interrupted : this.strings.stopped_between_steps, "stopped");
        }
        return undefined;
      }
    }
    return this.hardStop(job);
  }

  /** Stop pressed while Python is still loading: end the worker and say so; nothing ran, so nothing restarts. */
  stopLoading(job) {
    this.client.terminate();
    job.setStatus(""); // it never ran
    job.note(this.strings.stopped_loading, "stopped");
    if (job.notRun) job.notRun(); // its output is still the build's
  }

  /** Whether the running job ends within `ms`. */
  endsWithin(ms) {
    return Promise.race([this.current.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);
  }

  /** Forget every queued job but the running one; each says it did not run and why. */
  cancelQueued() {
    this.generation += 1;
    for (const job of this.queued) {
      job.setStatus("");
      job.note(this.strings.stopped_queued, "stopped");
      if (job.notRun) job.notRun();
    }
    this.queued.clear();
  }

  /** End the worker at once (Stop on code that never yields) and rebuild the namespace. */
  hardStop(job) {
    this.cancelQueued();
    if (this.restarting) return this.restarting; // one restart at a time: a second would only end the first
    this.client.terminate();
    if (job) {
      job.stopped();
      if (this.client.leavesWorkersRunning) job.note(this.strings.stop_may_keep_running, "warning");
    }
    this.queue = this.restart(job, null);
    return this.queue;
  }

  /** Python died under a job: drop the queue, start a fresh one and replay the earlier cells. */
  async recover(job, message) {
    this.cancelQueued();
    this.client.terminate();
    job.setStatus("failed");
    this.queue = this.restart(job, message);
    await this.queue;
  }

  /** Start a fresh worker and re-run, in order, the cells that had run successfully. */
  restart(job, message) {
    const notice = job ? job.note(message || this.strings.runtime_starting, "restart") : null;
    // The fresh worker may download the runtime again (a first visit, before the service worker kept it): the
    // bar says why it loads and which cells will bring their variables back.
    this.emit("restarting", { cells: this.shown(Array.from(this.history.keys())), message });
    this.restarting = this.replay(notice, message).finally(() => { this.restarting = null; });
    return this.restarting;
  }

  /**
   * Re-run the history in the current (fresh) Python and say on `notice` (and in a "restarted" event)
   * which cells came back, which raised, or that they could not be run again; resolves to whether
   * Python now holds the earlier cells' variables.
   */
  async replay(notice, message) {
    const replay = Array.from(this.history.entries());
    const raised = [];
    try {
      for (const [id, code] of replay) {
        const result = await this.client.run(id, code, null);
        if (!result.ok) raised.push(id);
      }
    } catch (error) {
      if (error instanceof Stopped) return false; // Stop pressed during the replay: it restarts and replays again
      // Python is gone again, or would not start: the history stays for the next Run to replay.
      const cells = this.shown(replay.map(([id]) => id));
      const text = format(listForm(this.strings, "replay_failed", cells.length), { cells: cells.join(", "),
        reason: error.message });
      if (notice) notice.textContent = text;
      this.emit("restarted", { cells: [], text });
      return false;
    }
    this.session = this.client.session;
    const ids = this.shown(replay.map(([id]) => id).filter((id) => !raised.includes(id)));
    const text = this.replayText(message, ids, this.shown(raised));
    if (notice) notice.textContent = text;
    this.emit("restarted", { cells: ids, text });
    return true;
  }

  /** The names among `names` that the learner can find on the page (not a hidden cell's). */
  shown(names) {
    return names.filter((name) => !this.hiddenNames.has(name));
  }

  /** After Stop (no message): "restarted to stop the code…"; otherwise the cause, then what came back. */
  replayText(message, ids, raised) {
    const cells = ids.join(", ");
    const said = (key) => format(listForm(this.strings, key, ids.length), { cells });
    let text;
    if (!message) text = ids.length ? said("restarted") : this.strings.restarted_none;
    else text = message + " " + (ids.length ? said("replayed") : this.strings.replayed_none);
    if (raised.length) {
      text += " " + format(listForm(this.strings, "replay_raised", raised.length), { cells: raised.join(", ") });
    }
    return text;
  }

  emit(type, detail) {
    this.dispatchEvent(Object.assign(new Event(type), { detail }));
  }
}
