// The run queue on its own, with a fake runtime client and plain-object jobs (node --test).
import assert from "node:assert/strict";
import { test } from "node:test";

import { Stopped } from "../../site/page/runtime-client.js";
import { Scheduler, barSubject } from "../../site/page/scheduler.js";

const STRINGS = {
  crashed: "Python stopped unexpectedly.",
  replay_failed: "Cells {cells} could not be run again ({reason}).",
  replay_raised: "Cells {cells} raised.",
  replay_raised_one: "Cell {cells} raised.",
  replayed: "Cells {cells} came back.",
  replayed_one: "Cell {cells} came back.",
  replayed_none: "Nothing to run again.",
  restarted: "Restarted to stop; cells {cells} were run again.",
  restarted_one: "Restarted to stop; cell {cells} was run again.",
  restarted_none: "Restarted to stop; nothing to run again.",
  runtime_failed: "Python could not start: {reason}",
  runtime_lost: "Python had stopped.",
  runtime_starting: "Starting Python…",
  stopped_between_steps: "Stopped between two steps.",
  stopped_interrupted: "Stopped by interrupt.",
  stopped_loading: "Stopped while loading.",
  stopped_queued: "Not run: Python stopped while this waited.",
  hidden_after_stopped: "Cell {n} was stopped; run it to the end to see this.",
  hidden_after_failed: "Cell {n} raised an error; fix it to see this.",
};

/** A runtime client that runs "code" as a script of steps, and remembers what ran in which worker. */
class FakeClient {
  constructor() {
    this.state = "idle";
    this.workers = 0;
    this.worker = null;
    this.session = 0;
    this.ran = []; // [worker, cell, code]
    this.pending = new Set();
    this.failNextStart = null;
    this.canInterrupt = false; // true: a shared buffer or the service worker's flag reaches Python
  }

  async start() {
    if (this.worker === null) {
      if (this.failNextStart) {
        const reason = this.failNextStart;
        this.failNextStart = null;
        this.state = "failed";
        throw new Error(reason);
      }
      this.workers += 1;
      this.worker = this.workers;
      this.session = this.workers;
      this.state = "ready";
    }
  }

  async run(cell, code) {
    await this.start();
    const worker = this.worker;
    this.ran.push([worker, cell, code]);
    if (code === "crash") { // a fatal interpreter error: the worker dies under the code
      this.worker = null;
      this.state = "lost";
      throw new Error("Uncaught RangeError: Maximum call stack size exceeded");
    }
    if (code === "raise") return { ok: false };
    if (code === "forever" || code === "steps" || code === "deaf" || code === "ends") {
      return new Promise((resolve, reject) => {
        const entry = { resolve, reject, polite: code === "steps" || code === "ends", deaf: code === "deaf",
          ends: code === "ends" };
        this.pending.add(entry);
      });
    }
    return { ok: true };
  }

  // A loop that yields ("steps") sees the polite request and ends between two steps, as course.runner reports it;
  // one that never yields ("forever") sees only an interrupt, and only where the client can raise one
  // (canInterrupt); "deaf" ignores both; "ends" awaits, so the worker hears the request, but finishes anyway.
  async requestStop() {
    let seen = false;
    for (const entry of this.pending) {
      if (entry.polite) {
        seen = true;
        this.pending.delete(entry);
        entry.resolve(entry.ends ? { ok: true } : { ok: true, stopped: true });
      }
    }
    return seen;
  }

  raiseInterrupt() {
    if (!this.canInterrupt) return false;
    for (const entry of this.pending) {
      if (!entry.deaf) {
        this.pending.delete(entry);
        entry.resolve({ ok: false, stopped: true });
      }
    }
    return true;
  }

  terminate() {
    this.worker = null;
    this.state = "idle";
    for (const entry of this.pending) entry.reject(new Stopped());
    this.pending.clear();
  }
}

/** A cell as the scheduler sees it: its code, its status and its notes. */
function cell(id, code) {
  return {
    id,
    code,
    status: "",
    notes: [],
    async execute(client) {
      this.status = "running";
      const result = await client.run(this.id, this.code, null);
      this.status = result.ok ? "done" : "failed";
      return { ok: result.ok, replay: result.ok ? this.code : null, stopped: Boolean(result.stopped) };
    },
    setStatus(key) { this.status = key; },
    stopped() { this.status = ""; },
    note(text, kind) {
      const note = { text, kind, get textContent() { return this.text; }, set textContent(value) { this.text = value; } };
      this.notes.push(note);
      return note;
    },
  };
}

function check(id) {
  return Object.assign(cell(id, "check"), {
    async execute(client) {
      await client.run("check", "check", null);
      this.status = "done";
      return { ok: true };
    },
  });
}

function events(scheduler, type) {
  const seen = [];
  scheduler.addEventListener(type, (event) => seen.push(event.detail));
  return seen;
}

function until(predicate) {
  return new Promise((resolve) => {
    const poll = () => (predicate() ? resolve() : setImmediate(poll));
    poll();
  });
}

// Queue `cells` and wait until the first of them is running in the worker: where a test then presses Stop.
async function startRunning(scheduler, client, cells) {
  scheduler.run(cells);
  await until(() => client.pending.size === 1);
}

// A client whose Python can be interrupted, and a scheduler over it with these options.
function interruptible(options) {
  const client = new FakeClient();
  client.canInterrupt = true;
  return { client, scheduler: new Scheduler(client, STRINGS, options) };
}

test("jobs run one at a time in the order they were queued", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  const jobs = [cell(1, "a"), cell(2, "b"), cell(3, "c")];
  const queued = scheduler.run(jobs);
  assert.deepEqual(jobs.map((job) => job.status), ["queued", "queued", "queued"]);
  await queued;
  assert.deepEqual(client.ran.map(([, id]) => id), [1, 2, 3]);
  assert.deepEqual(jobs.map((job) => job.status), ["done", "done", "done"]);
  assert.deepEqual([...scheduler.history.keys()], [1, 2, 3]);
});

test("a run that releases unbinds its cells' names once the cell ahead of it ends, then runs them; a fresh Python frees nothing", async () => {
  const client = new FakeClient();
  const log = [];
  client.release = async (codes) => log.push(["release", codes]);
  const run = client.run.bind(client);
  client.run = (id, code) => {
    log.push(["run", id]);
    return run(id, code);
  };
  const scheduler = new Scheduler(client, STRINGS);
  const withCode = (job) => Object.assign(job, { code() { return "code of " + job.id; } });
  await scheduler.run([withCode(cell(1, "a"))], { release: true }); // Python was not ready: nothing to free
  const all = [withCode(cell(1, "a")), withCode(cell(2, "b")), check("multi_head")];
  await Promise.all([scheduler.run([cell(3, "c")]), scheduler.run(all, { release: true })]);
  assert.deepEqual(log, [["run", 1], ["run", 3], ["release", ["code of 1", "code of 2"]], ["run", 1], ["run", 2],
    ["run", "check"]]);
});

test("a failed cell leaves the replay history and a check never enters it", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  const first = cell(1, "a");
  await scheduler.run([first, check("multi_head")]);
  first.code = "raise";
  await scheduler.run([first]);
  assert.deepEqual([...scheduler.history.keys()], []);
});

test("stop ends a loop that yields politely and Python keeps its namespace", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS, { politeStopMs: 1000 });
  const training = cell(2, "steps");
  await scheduler.run([cell(1, "a")]);
  await startRunning(scheduler, client, [training]);
  await scheduler.stop();
  assert.equal(client.workers, 1);
  assert.deepEqual(training.notes.map((note) => note.text), ["Stopped between two steps."]);
});

test("stop ends a loop that never yields, drops the queue and replays the earlier cells", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS, { politeStopMs: 5 });
  const restarted = events(scheduler, "restarted");
  await scheduler.run([cell(1, "a"), cell(2, "b")]);
  const loop = cell(3, "forever");
  const waiting = cell(4, "d");
  await startRunning(scheduler, client, [loop, waiting]);
  assert.equal(waiting.status, "queued");
  await scheduler.stop();
  assert.equal(loop.status, "");
  assert.equal(waiting.status, "");
  assert.equal(client.workers, 2);
  assert.deepEqual(client.ran.filter(([worker]) => worker === 2).map(([, id]) => id), [1, 2]);
  assert.deepEqual(restarted.map((detail) => detail.cells), [[1, 2]]);
  assert.equal(loop.notes.at(-1).text, "Restarted to stop; cells 1, 2 were run again.");
  await scheduler.queue;
  assert.ok(!client.ran.some(([, id]) => id === 4), "the queued cell was dropped");
});

test("a fatal error under a cell restarts Python, replays the earlier cells and says so", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  await scheduler.run([cell(1, "a"), cell(2, "raise")]);
  const boom = cell(3, "crash");
  await scheduler.run([boom]);
  assert.equal(boom.status, "failed");
  assert.deepEqual(boom.notes.map((note) => [note.text, note.kind]),
    [["Python stopped unexpectedly. Cell 1 came back.", "restart"]]);
  assert.deepEqual(client.ran.filter(([worker]) => worker === 2).map(([, id]) => id), [1]);
  const after = cell(4, "d");
  await scheduler.run([after]);
  assert.equal(client.workers, 2, "the next Run uses the restarted Python as it is");
  assert.deepEqual(after.notes, []);
});

test("a Python lost between two runs gets the earlier cells replayed before the next one", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  await scheduler.run([cell(1, "a"), cell(2, "b")]);
  client.worker = null; // e.g. an explorable's call killed the worker
  const next = cell(3, "c");
  await scheduler.run([next]);
  assert.deepEqual(client.ran.filter(([worker]) => worker === 2).map(([, id]) => id), [1, 2, 3]);
  assert.deepEqual(next.notes.map((note) => note.text), ["Python had stopped. Cells 1, 2 came back."]);
  assert.equal(next.status, "done");
});

test("a restart that cannot replay says so, and the next run replays first", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  await scheduler.run([cell(1, "a")]);
  client.failNextStart = "offline";
  const boom = cell(2, "crash");
  await scheduler.run([boom]);
  assert.equal(boom.notes.at(-1).text, "Cells 1 could not be run again (offline).");
  const next = cell(3, "c");
  await scheduler.run([next]);
  assert.deepEqual(client.ran.filter(([worker]) => worker === 2).map(([, id]) => id), [1, 3]);
  assert.equal(next.notes[0].text, "Python had stopped. Cell 1 came back.");
});

test("a replayed cell that raises is named", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  const flaky = cell(2, "b");
  await scheduler.run([cell(1, "a"), flaky]);
  flaky.code = "raise"; // what it does now, e.g. it reads a file that is gone
  scheduler.history.set(2, "raise");
  const boom = cell(3, "crash");
  await scheduler.run([boom]);
  assert.equal(boom.notes.at(-1).text, "Python stopped unexpectedly. Cell 1 came back. Cell 2 raised.");
});

test("when Python cannot start the job says why and the next run tries again", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  client.failNextStart = "no wasm";
  const first = cell(1, "a");
  await scheduler.run([first]);
  assert.equal(first.status, "failed");
  assert.deepEqual(first.notes.map((note) => [note.text, note.kind]), [["Python could not start: no wasm", "warning"]]);
  await scheduler.run([first]);
  assert.equal(first.status, "done");
});

test("a cell that never ran because Python could not start, or Stop ended the download, says its output is the recorded one", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  const unrun = (id) => Object.assign(cell(id, "a"), { notRun() { this.recorded = true; } });
  client.failNextStart = "no wasm";
  const failedStart = unrun(1);
  await scheduler.run([failedStart]);
  assert.equal(failedStart.recorded, true);
  const ran = unrun(3);
  await scheduler.run([ran]);
  assert.equal(ran.recorded, undefined);
  client.terminate();
  let release;
  client.start = () => new Promise((resolve, reject) => { client.state = "loading"; release = reject; });
  client.terminate = () => { client.state = "idle"; release(new Stopped()); };
  const loading = unrun(2);
  const finished = scheduler.run([loading]);
  await until(() => release !== undefined);
  await scheduler.stop();
  await finished;
  assert.equal(loading.recorded, true);
});

test("busy and finished events follow each job", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  const busy = events(scheduler, "busy");
  const finished = events(scheduler, "finished");
  const job = cell(1, "a");
  await scheduler.run([job]);
  assert.deepEqual(busy.map((detail) => detail.running), [true, false]);
  assert.deepEqual(finished.map((detail) => detail.job), [job]);
});

test("cells queued behind one that kills Python are dropped, not left waiting", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  await scheduler.run([cell(1, "a")]);
  const waiting = cell(3, "c");
  await scheduler.run([cell(2, "crash"), waiting]);
  assert.equal(waiting.status, "");
  assert.ok(!client.ran.some(([, id]) => id === 3));
  assert.deepEqual(waiting.notes.map((note) => note.text), ["Not run: Python stopped while this waited."]);
});

test("a job queued behind the one Stop interrupts is dropped and says so", async () => {
  const { client, scheduler } = interruptible({ politeStopMs: 1000, interruptAfterMs: 5 });
  const loop = cell(1, "forever");
  const waiting = cell(2, "b");
  await startRunning(scheduler, client, [loop, waiting]);
  await scheduler.stop();
  await scheduler.queue;
  assert.equal(client.workers, 1);
  assert.equal(waiting.status, "");
  assert.ok(!client.ran.some(([, id]) => id === 2), "the queued cell was dropped");
  assert.deepEqual(waiting.notes.map((note) => note.text), ["Not run: Python stopped while this waited."]);
  assert.deepEqual(loop.notes.map((note) => note.text), ["Stopped by interrupt."]);
});


test("where Python can be interrupted, stop interrupts a loop that never yields, and nothing is restarted", async () => {
  const { client, scheduler } = interruptible({ politeStopMs: 1000, interruptAfterMs: 5 });
  await scheduler.run([cell(1, "a")]);
  const loop = cell(2, "forever");
  await startRunning(scheduler, client, [loop]);
  await scheduler.stop();
  assert.equal(client.workers, 1);
  assert.equal(loop.status, "failed");
  assert.deepEqual(loop.notes.map((note) => note.text), ["Stopped by interrupt."]);
  assert.deepEqual([...scheduler.history.keys()], [1]);
});

test("a loop that sees the polite request is never interrupted, even where it could be", async () => {
  const client = new FakeClient();
  client.canInterrupt = true;
  let raised = 0;
  const raise = client.raiseInterrupt.bind(client);
  client.raiseInterrupt = () => { raised += 1; return raise(); };
  const scheduler = new Scheduler(client, STRINGS, { politeStopMs: 1000, interruptAfterMs: 5 });
  const training = cell(1, "steps");
  await startRunning(scheduler, client, [training]);
  await scheduler.stop();
  assert.equal(raised, 0);
  assert.deepEqual(training.notes.map((note) => note.text), ["Stopped between two steps."]);
});

test("code that ignores the interrupt too is ended with its worker", async () => {
  const { client, scheduler } = interruptible({ politeStopMs: 5, interruptAfterMs: 5, interruptedStopMs: 5 });
  await scheduler.run([cell(1, "a")]);
  const stuck = cell(2, "deaf");
  await startRunning(scheduler, client, [stuck]);
  await scheduler.stop();
  assert.equal(client.workers, 2);
  assert.equal(stuck.notes.at(-1).text, "Restarted to stop; cell 1 was run again.");
});

test("a second Stop while Python restarts starts no second restart", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS, { politeStopMs: 5 });
  await scheduler.run([cell(1, "a")]);
  await startRunning(scheduler, client, [cell(2, "forever")]);
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  const start = client.start.bind(client);
  client.start = async () => { if (client.workers === 1 && client.worker === null) await gate; return start(); };
  let ended = 0;
  const terminate = client.terminate.bind(client);
  client.terminate = () => { ended += 1; terminate(); };
  const restarted = events(scheduler, "restarted");
  const first = scheduler.stop();
  await until(() => scheduler.restarting !== null); // the fresh Python is still starting
  const second = scheduler.stop(); // the learner presses Stop again, impatient
  release();
  await Promise.all([first, second]);
  assert.equal(ended, 1);
  assert.equal(restarted.length, 1);
});

test("where the browser keeps ended workers running, Stop says so", async () => {
  const client = new FakeClient();
  client.leavesWorkersRunning = true;
  const scheduler = new Scheduler(client, { ...STRINGS, stop_may_keep_running: "May keep running." },
    { politeStopMs: 5 });
  const loop = cell(1, "forever");
  await startRunning(scheduler, client, [loop]);
  await scheduler.stop();
  assert.ok(loop.notes.some((note) => note.text === "May keep running." && note.kind === "warning"));
});

test("stop pressed twice while a loop ends adds one note, not two", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS, { politeStopMs: 1000 });
  const training = cell(1, "steps");
  await startRunning(scheduler, client, [training]);
  await Promise.all([scheduler.stop(), scheduler.stop()]);
  assert.deepEqual(training.notes.map((note) => note.text), ["Stopped between two steps."]);
  assert.equal(client.workers, 1);
});

test("stop pressed while Python loads ends the download, says so, and starts nothing", async () => {
  const client = new FakeClient();
  let loading = null;
  client.start = () => { // a download that goes on until the worker is ended
    client.state = "loading";
    return new Promise((resolve, reject) => { loading = reject; });
  };
  client.terminate = () => {
    client.state = "idle";
    if (loading) loading(new Stopped());
  };
  const scheduler = new Scheduler(client, STRINGS);
  const restarted = events(scheduler, "restarted");
  const first = cell(1, "a");
  const finished = scheduler.run([first, cell(2, "b")]);
  await until(() => loading !== null);
  await scheduler.stop();
  await finished;
  assert.deepEqual(first.notes.map((note) => note.text), ["Stopped while loading."]);
  assert.equal(first.status, "");
  assert.deepEqual(restarted, []);
  assert.equal(client.state, "idle");
  assert.deepEqual(client.ran, []);
});

test("earlier jobs run first on the learner's behalf, and the first that fails leaves the rest unrun", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  const finished = events(scheduler, "finished");
  const seen = [];
  const asked = cell(3, "c");
  const first = cell(1, "a");
  const original = first.execute;
  first.execute = function (runtime, options) {
    seen.push(options.onBehalf);
    return original.call(this, runtime, options);
  };
  const failed = await scheduler.run([asked], { earlier: [first, cell(2, "raise")] });
  assert.equal(failed.id, 2);
  assert.deepEqual(client.ran.map(([, id]) => id), [1, 2]);
  assert.equal(asked.status, "");
  assert.deepEqual(seen, [true]);
  assert.deepEqual(finished.map((detail) => [detail.job.id, detail.onBehalf]), [[1, true], [2, true]]);
  assert.equal(await scheduler.run([asked], { earlier: [cell(1, "a")] }), null);
  assert.deepEqual(finished.at(-1), { job: asked, onBehalf: false });
});

test("a cell Stop ended stays stopped until it runs again, whether interrupted or restarted", async () => {
  for (const canInterrupt of [true, false]) {
    const client = new FakeClient();
    const scheduler = new Scheduler(client, STRINGS, { politeStopMs: 5, interruptAfterMs: 5 });
    const first = cell(1, "a");
    const loop = cell(2, "forever");
    await scheduler.run([first]);
    client.canInterrupt = canInterrupt;
    await startRunning(scheduler, client, [loop]);
    await scheduler.stop();
    assert.equal(client.workers, canInterrupt ? 1 : 2, "interrupted, or restarted where it cannot interrupt");
    assert.equal(scheduler.wasStopped(loop), true);
    assert.equal(scheduler.wasStopped(first), false);
    loop.code = "b";
    await scheduler.run([loop]);
    assert.equal(scheduler.wasStopped(loop), false);
  }
});

test("a cell stopped while Python was still loading never ran, so it is not a stopped cell", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  let release;
  client.start = () => {
    client.state = "loading";
    return new Promise((resolve, reject) => { release = reject; });
  };
  client.terminate = () => release(new Stopped());
  const waiting = cell(1, "a");
  const done = scheduler.run([waiting]);
  await until(() => release !== undefined);
  await scheduler.stop();
  await done;
  assert.equal(scheduler.wasStopped(waiting), false);
});

/** A cell the lesson removed (remove-cell), which follows the visible cell `after`. */
function hidden(id, code, after) {
  return Object.assign(cell(id, code), { hidden: true, follows: after });
}

test("a hidden cell after a stopped cell is skipped, the cell asked for still runs, and the queue says it is idle", async () => {
  const { client, scheduler } = interruptible({ politeStopMs: 1000, interruptAfterMs: 5 });
  const training = cell("15", "forever");
  await startRunning(scheduler, client, [training]);
  await scheduler.stop();
  const glue = hidden("15.1", "raise", training); // it reads what the stopped training never bound
  const asked = cell("16", "c");
  const skipped = events(scheduler, "skipped");
  const idle = events(scheduler, "idle");
  const failed = await scheduler.run([asked], { earlier: [glue] });
  assert.equal(failed, null);
  assert.ok(!client.ran.some(([, id]) => id === "15.1"), "the hidden cell did not run");
  assert.equal(glue.status, "");
  assert.deepEqual(skipped.map((detail) => [detail.job.id, detail.after.id]), [["15.1", "15"]]);
  assert.equal(asked.status, "done");
  assert.deepEqual(asked.notes.map((note) => note.text), ["Cell 15 was stopped; run it to the end to see this."]);
  assert.equal(idle.length, 1);
});

test("a hidden cell after a cell that raised is skipped with the hidden cells after it", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  const broken = cell("7", "raise");
  await scheduler.run([broken]);
  const first = hidden("7.1", "a", broken);
  const second = hidden("7.2", "b", broken);
  const asked = cell("8", "c");
  await scheduler.run([asked], { earlier: [first, second] });
  assert.deepEqual(client.ran.map(([, id]) => id), ["7", "8"]);
  assert.deepEqual(asked.notes.map((note) => note.text), ["Cell 7 raised an error; fix it to see this."]);
  broken.code = "a"; // fixed: its hidden cells run again after it
  await scheduler.run([cell("8", "c")], { earlier: [broken, first, second] });
  assert.deepEqual(client.ran.slice(2).map(([, id]) => id), ["7", "7.1", "7.2", "8"]);
});

test("while a hidden cell runs, the bar names the visible job it prepares and counts only the ones after it", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  const said = [];
  scheduler.addEventListener("started", ({ detail: { job } }) => {
    const { job: named, waiting } = barSubject(job, scheduler.queued);
    said.push([job.id, named && named.id, waiting]);
  });
  const first = cell("3", "a");
  const asked = cell("4", "c");
  const later = cell("5", "c");
  await scheduler.run([asked, later], { earlier: [first, hidden("3.1", "b", first), hidden("3.2", "b", first)] });
  assert.deepEqual(said, [["3", "3", 2], ["3.1", "4", 1], ["3.2", "4", 1], ["4", "4", 1], ["5", "5", 0]]);
  const last = hidden("5.1", "b", later); // nothing visible after it: nothing to name
  await scheduler.run([last]);
  assert.deepEqual(said.at(-1), ["5.1", null, 0]);
});

test("a hidden cell Stop ended between two steps leaves the history, so the page runs it first again; a visible one stays", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  const visible = cell("3", "steps");
  await startRunning(scheduler, client, [visible]);
  await scheduler.stop();
  const slow = hidden("3.1", "steps", cell("2", "a"));
  await startRunning(scheduler, client, [slow]);
  await scheduler.stop();
  assert.deepEqual([...scheduler.history.keys()], ["3"]);
  assert.equal(scheduler.wasStopped(slow), true);
});

test("a hidden cell that raises does not keep the cell asked for from running, and is never named as the failed one", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  const visible = cell("3", "a");
  const asked = cell("4", "c");
  const failed = await scheduler.run([asked], { earlier: [visible, hidden("3.1", "raise", visible)] });
  assert.equal(failed, null);
  assert.equal(asked.status, "done");
});

test("a cell left unrun behind an earlier one that failed says its output is the lesson's recorded one, and the queue ends idle", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  const idle = events(scheduler, "idle");
  const busy = events(scheduler, "busy");
  const asked = Object.assign(cell("5", "c"), { notRun() { this.recorded = true; } });
  const failed = await scheduler.run([asked], { earlier: [cell("4", "raise")] });
  assert.equal(failed.id, "4");
  assert.equal(asked.recorded, true);
  assert.equal(asked.status, "");
  assert.equal(busy.at(-1).running, false);
  assert.equal(idle.length, 1, "the bar hears that nothing runs any more, though the last job never started");
});

test("Stop on a cell that finishes anyway adds no note to the completed cell", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS, { politeStopMs: 1000 });
  const quick = cell(1, "ends");
  await startRunning(scheduler, client, [quick]);
  await scheduler.stop();
  assert.equal(quick.status, "done");
  assert.deepEqual(quick.notes, []);
  assert.equal(scheduler.wasStopped(quick), false);
});

test("a job hears whether Stop was pressed while it ran: a KeyboardInterrupt without it is the learner's own", async () => {
  const { client, scheduler } = interruptible({ politeStopMs: 1000, interruptAfterMs: 5 });
  const asked = [];
  const job = (id, code) => Object.assign(cell(id, code), {
    async execute(runtime, options) {
      const result = await runtime.run(this.id, this.code, null);
      asked.push(options.stopAsked());
      return { ok: result.ok, stopped: Boolean(result.stopped) };
    },
  });
  await scheduler.run([job(1, "a")]);
  await startRunning(scheduler, client, [job(2, "forever")]);
  await scheduler.stop();
  assert.deepEqual(asked, [false, true]);
});

test("a start that fails on a file the site did not send says so and what to do, in the page's words", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, { ...STRINGS, runtime_failed_missing: "A file is missing ({reason}); reload." });
  client.failNextStart = "course library: HTTP 404";
  const first = cell(1, "a");
  await scheduler.run([first]);
  assert.deepEqual(first.notes.map((note) => note.text), ["A file is missing (course library: HTTP 404); reload."]);
});

test("a restart replays hidden cells too but names only the cells the learner can see", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS, { politeStopMs: 5 });
  const restarting = events(scheduler, "restarting");
  const first = cell("1", "a");
  await scheduler.run([first, hidden("1.1", "b", first), cell("2", "c")]);
  const loop = cell("3", "forever");
  await startRunning(scheduler, client, [loop]);
  await scheduler.stop();
  assert.deepEqual(client.ran.filter(([worker]) => worker === 2).map(([, id]) => id), ["1", "1.1", "2"]);
  assert.deepEqual(restarting.map((detail) => detail.cells), [["1", "2"]]);
  assert.equal(loop.notes.at(-1).text, "Restarted to stop; cells 1, 2 were run again.");
});

test("an exercise's code checked in an earlier visit is defined in the first Python before any cell, quietly, and replayed after a restart", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS, { politeStopMs: 5 });
  scheduler.restore("sorted_target", "def sorted_target(): ...");
  scheduler.restore("broken", "raise");
  const uses = cell(5, "b");
  await scheduler.run([uses]);
  assert.deepEqual(client.ran.map(([worker, id]) => [worker, id]), [[1, "sorted_target"], [1, "broken"], [1, 5]]);
  assert.equal(uses.status, "done");
  assert.deepEqual(uses.notes, [], "nothing says Python was lost or replayed: it is the page's first Python");
  assert.deepEqual([...scheduler.history.keys()], ["sorted_target", 5], "what raised is not replayed");
  // A restart (Stop on a loop that never yields) brings the learner's function back with the cells.
  const loop = cell(6, "forever");
  await startRunning(scheduler, client, [loop]);
  await scheduler.stop();
  assert.deepEqual(client.ran.filter(([worker]) => worker === 2).map(([, id]) => id), ["sorted_target", 5]);
});

test("a restored definition the learner checks again in this visit is not defined a second time", async () => {
  const client = new FakeClient();
  const scheduler = new Scheduler(client, STRINGS);
  await scheduler.run([cell(1, "a")]);
  scheduler.restore(1, "old");
  await scheduler.run([cell(2, "b")]);
  assert.deepEqual(client.ran.map(([, id, code]) => [id, code]), [[1, "a"], [2, "b"]]);
});
