// The worker's start, driven with a stand-in for Pyodide: what it asks for, and in which order (node --test).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import vm from "node:vm";

const HANDLER = readFileSync(new URL("../../site/worker/worker-handler.js", import.meta.url), "utf8");
const INDEX = "http://127.0.0.1:8000/runtime/";
const WHEEL = { file: "packages/einops-0.8.1-py3-none-any.whl", name: "einops", sha256: "ab", version: "0.8.1" };

/** A promise with its resolve function beside it. */
function deferred() {
  let resolve;
  const promise = new Promise((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/**
 * A stand-in Pyodide that records what the handler asks of it; every Python request succeeds. Python run
 * awaited and run at once are logged alike ("python", what it was); `packagesLoaded`, when given, holds back
 * loadPackage's answer until it resolves, which is then logged ("loaded").
 */
function fakePyodide(log, packagesLoaded = null) {
  const python = (code) => {
    if (code.startsWith("import random")) return void log.push(["runPython", code]);
    log.push(["python", code.includes("_course_wheels_module") ? "install" : code.includes("Handler(") ? "boot" : "request"]);
    return JSON.stringify({ ok: true, value: {} });
  };
  return {
    FS: {
      cwd: () => "/home/pyodide",
      mkdirTree: (path) => log.push(["mkdirTree", path]),
      writeFile: (path, data) => log.push(["writeFile", path, typeof data === "string" ? data : Array.from(data)]),
    },
    globals: { set: () => {} },
    loadPackage: async (names) => {
      log.push(["loadPackage", names]);
      if (!packagesLoaded) return;
      await packagesLoaded;
      log.push(["loaded", names]);
    },
    runPython: python,
    runPythonAsync: async (code) => python(code),
  };
}

/**
 * The handler in a worker-like global of its own; returns what it posted, what it did, and Pyodide's gate.
 * `caches`: a stand-in Cache Storage (fakeCaches); `refuseSnapshots`: loadPyodide throws when given one to restore;
 * `failRestored`: a restored Pyodide cannot load a package.
 */
function startWorker({ caches, refuseSnapshots = false, failRestored = false, library = {}, packagesLoaded = null } = {}) {
  const log = [];
  const posted = [];
  const pyodideUp = deferred();
  const fetch = async (url) => {
    log.push(["fetch", String(url)]);
    const body = String(url).endsWith(".whl") ? new Uint8Array([80, 75]) : null;
    return { ok: true, json: async () => library, arrayBuffer: async () => body.buffer };
  };
  // A worker's global is `self`: the handler reads both names.
  const self = vm.createContext({ postMessage: (message) => posted.push(message), fetch, URL, caches, Blob, Response,
    DecompressionStream });
  self.self = self;
  vm.runInContext(HANDLER, self);
  self.startCourseWorker(async (options) => {
    const restoring = options._loadSnapshot ? Array.from(options._loadSnapshot) : null;
    log.push(["loadPyodide", Object.keys(options).sort(), ...(restoring ? [restoring] : [])]);
    await pyodideUp.promise;
    if (restoring && refuseSnapshots) throw new Error("Snapshot has invalid magic number");
    const pyodide = fakePyodide(log, packagesLoaded);
    if (restoring && failRestored) pyodide.loadPackage = async () => Promise.reject(new Error("cannot load numpy"));
    if (options._makeSnapshot) pyodide.makeMemorySnapshot = () => new Uint8Array([7, 8, 9]);
    return pyodide;
  });
  return { self, log, posted, pyodideUp };
}

function init(micropip, wheels, snapshot = null) {
  return { type: "init", id: 1, indexURL: INDEX, libraryURLs: [INDEX + "../assets/course-lib.json"], packages: ["numpy"],
    files: [], micropip, wheels, snapshot };
}

const SNAPSHOT = { cache: "course-runtime-1", url: INDEX + "course-snapshot.bin.gz", make: true };

/** A stand-in Cache Storage holding one cache, SNAPSHOT.cache; `stored`: its snapshot's bytes, gzipped by the test. */
function fakeCaches(stored = null) {
  const entries = new Map(stored ? [[SNAPSHOT.url, stored]] : []);
  const cache = {
    match: async (url) => (entries.has(url) ? new Response(entries.get(url)) : undefined),
    delete: async (url) => entries.delete(url),
  };
  return { entries, has: async (name) => name === SNAPSHOT.cache, open: async () => cache };
}

async function gzip(bytes) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
}

/** Wait (on real timers: compression streams need them) until `check()` resolves true; fail after a second. */
async function until(check) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((done) => setTimeout(done, 5));
  }
  assert.fail("waited in vain for " + check);
}

/** What the worker did, leaving out its fetches (the library's, the wheels'), which run alongside. */
function withoutFetches(worker) {
  return worker.log.filter(([what]) => what !== "fetch");
}

/** Let every pending promise callback run (no timers). */
async function settle() {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

test("a lesson's wheels are fetched while Pyodide is still loading", async () => {
  const worker = startWorker();
  worker.self.onmessage({ data: init(["micropip"], [WHEEL]) });
  await settle();
  assert.deepEqual(worker.log.filter(([what]) => what === "fetch").map(([, url]) => url).sort(),
    [INDEX + "../assets/course-lib.json", INDEX + WHEEL.file]);
  assert.ok(!worker.log.some(([what]) => what === "loadPackage"));
  worker.pyodideUp.resolve();
  await settle();
  assert.equal(worker.posted.at(-1).ok, true, JSON.stringify(worker.posted.at(-1)));
});

test("the fetched wheel is installed from /tmp without micropip, which loads only when a cell imports it", async () => {
  const worker = startWorker();
  worker.pyodideUp.resolve();
  worker.self.onmessage({ data: init(["micropip-0.11.1-py3-none-any.whl", "packaging-26.1-py3-none-any.whl"], [WHEEL]) });
  await settle();
  assert.equal(worker.posted.at(-1).ok, true, JSON.stringify(worker.posted.at(-1)));
  const steps = () => worker.log.filter(([what]) => what !== "fetch" && what !== "loadPyodide");
  assert.deepEqual(steps(), [
    ["loadPackage", ["numpy"]],
    ["python", "boot"],
    ["writeFile", "/tmp/einops-0.8.1-py3-none-any.whl", [80, 75]],
    ["python", "install"],
    ["python", "request"],
  ]);
  worker.self.onmessage({ data: { type: "run", id: 2, cell: 1, code: "print(1)" } });
  worker.self.onmessage({ data: { type: "run", id: 3, cell: 1, code: "x = 1\nimport micropip" } });
  worker.self.onmessage({ data: { type: "run", id: 4, cell: 1, code: "from micropip import install" } });
  await settle();
  assert.equal(worker.posted.at(-1).id, 4, JSON.stringify(worker.posted.at(-1)));
  assert.deepEqual(steps().slice(5), [
    ["python", "request"],
    ["loadPackage", [INDEX + "micropip-0.11.1-py3-none-any.whl", INDEX + "packaging-26.1-py3-none-any.whl"]],
    ["python", "request"],
    ["python", "request"], // loaded once
  ]);
});

test("the course library boots and the wheels install while the packages load; the request waits for them", async () => {
  const packages = deferred();
  const worker = startWorker({ packagesLoaded: packages.promise });
  worker.pyodideUp.resolve();
  worker.self.onmessage({ data: init([], [WHEEL]) });
  await settle();
  assert.deepEqual(withoutFetches(worker).slice(1).map(([what, detail]) => what === "writeFile" ? what : [what, detail].join(" ")),
    ["loadPackage numpy", "python boot", "writeFile", "python install"]);
  assert.equal(worker.posted.length, 0);
  packages.resolve();
  await settle();
  assert.deepEqual(withoutFetches(worker).slice(-2), [["loaded", ["numpy"]], ["python", "request"]]);
  assert.equal(worker.posted.at(-1).ok, true, JSON.stringify(worker.posted.at(-1)));
});

test("the course library's files are written under Python's working folder before it boots", async () => {
  const library = { "course/__init__.py": "", "course/nn/layers.py": "x = 1\n" };
  const worker = startWorker({ library });
  worker.pyodideUp.resolve();
  worker.self.onmessage({ data: init([], []) });
  await settle();
  const steps = withoutFetches(worker).filter(([what]) => what !== "loadPyodide" && what !== "loadPackage");
  assert.deepEqual(steps.slice(0, 5), [
    ["mkdirTree", "/home/pyodide/course-lib/course"],
    ["writeFile", "/home/pyodide/course-lib/course/__init__.py", ""],
    ["mkdirTree", "/home/pyodide/course-lib/course/nn"],
    ["writeFile", "/home/pyodide/course-lib/course/nn/layers.py", "x = 1\n"],
    ["python", "boot"],
  ]);
});

test("a lesson without wheels loads nothing but its packages, and a cell importing micropip loads none", async () => {
  const worker = startWorker();
  worker.pyodideUp.resolve();
  worker.self.onmessage({ data: init([], []) });
  await settle();
  assert.equal(worker.posted.at(-1).ok, true, JSON.stringify(worker.posted.at(-1)));
  worker.self.onmessage({ data: { type: "run", id: 2, cell: 1, code: "import micropip" } });
  await settle();
  assert.deepEqual(worker.log.filter(([what]) => what === "loadPackage"), [["loadPackage", ["numpy"]]]);
  assert.deepEqual(worker.log.filter(([what]) => what === "python" || what === "writeFile"),
    [["python", "boot"], ["python", "request"], ["python", "request"]]);
});

test("with no snapshot stored, Python starts afresh, and its memory, copied at once, is handed over after init", async () => {
  const worker = startWorker({ caches: fakeCaches() });
  worker.pyodideUp.resolve();
  worker.self.onmessage({ data: init([], [], SNAPSHOT) });
  await until(() => worker.posted.length >= 2);
  assert.equal(worker.posted[0].ok, true, JSON.stringify(worker.posted[0]));
  assert.equal(worker.posted[0].value.startedFrom, "start");
  assert.deepEqual(withoutFetches(worker)[0], ["loadPyodide", ["_makeSnapshot", "indexURL"]]);
  // The copy goes to the page (which hands it to the service worker) only after init's answer.
  assert.equal(worker.posted[1].type, "snapshot");
  assert.deepEqual(Array.from(worker.posted[1].bytes), [7, 8, 9]);
});

test("a stored snapshot is restored, the random module seeded afresh, and no copy handed over", async () => {
  const worker = startWorker({ caches: fakeCaches(await gzip(new Uint8Array([1, 2, 3]))) });
  worker.pyodideUp.resolve();
  worker.self.onmessage({ data: init([], [], SNAPSHOT) });
  await until(() => worker.posted.length);
  assert.equal(worker.posted[0].value.startedFrom, "snapshot", JSON.stringify(worker.posted[0]));
  assert.deepEqual(withoutFetches(worker)[0], ["loadPyodide", ["_loadSnapshot", "indexURL"], [1, 2, 3]]);
  assert.deepEqual(withoutFetches(worker)[1], ["runPython", "import random\nrandom.seed()"]);
  await new Promise((done) => setTimeout(done, 50)); // time for a copy to be handed over, were one made
  assert.deepEqual(worker.posted.map((message) => message.type), ["result"]);
});

test("a snapshot this Pyodide refuses gives way to a fresh start, whose copy is handed over to replace it", async () => {
  const worker = startWorker({ caches: fakeCaches(await gzip(new Uint8Array([1, 2, 3]))), refuseSnapshots: true });
  worker.pyodideUp.resolve();
  worker.self.onmessage({ data: init([], [], SNAPSHOT) });
  await until(() => worker.posted.length >= 2);
  assert.equal(worker.posted[0].value.startedFrom, "start", JSON.stringify(worker.posted[0]));
  assert.deepEqual(worker.log.filter(([what]) => what === "loadPyodide").map((entry) => entry[1]),
    [["_loadSnapshot", "indexURL"], ["_makeSnapshot", "indexURL"]]);
  assert.deepEqual(Array.from(worker.posted[1].bytes), [7, 8, 9]);
});

test("a restored start that fails a later step is tried once more afresh, and the snapshot is dropped", async () => {
  const caches = fakeCaches(await gzip(new Uint8Array([1, 2, 3])));
  const worker = startWorker({ caches, failRestored: true });
  worker.pyodideUp.resolve();
  worker.self.onmessage({ data: init([], [], SNAPSHOT) });
  await until(() => worker.posted.length);
  assert.equal(worker.posted[0].ok, true, JSON.stringify(worker.posted[0]));
  assert.equal(worker.posted[0].value.startedFrom, "start");
  assert.deepEqual(worker.log.filter(([what]) => what === "loadPyodide").map((entry) => entry[1]),
    [["_loadSnapshot", "indexURL"], ["indexURL"]]); // the second try makes no copy, which could fail alike
  assert.equal(caches.entries.size, 0);
  await new Promise((done) => setTimeout(done, 50));
  assert.deepEqual(worker.posted.map((message) => message.type), ["result"]);
});

test("a start the page asks for no copy (a first visit's) makes none, and loads Pyodide as before", async () => {
  const worker = startWorker({ caches: fakeCaches() });
  worker.pyodideUp.resolve();
  worker.self.onmessage({ data: init([], [], { ...SNAPSHOT, make: false }) });
  await until(() => worker.posted.length);
  assert.equal(worker.posted[0].value.startedFrom, "start", JSON.stringify(worker.posted[0]));
  assert.deepEqual(withoutFetches(worker)[0], ["loadPyodide", ["indexURL"]]);
  await new Promise((done) => setTimeout(done, 50));
  assert.deepEqual(worker.posted.map((message) => message.type), ["result"]);
});

test("a runtime without snapshots (snapshot: null, the legacy one) is started as before and the caches are not read", async () => {
  const caches = { has: async () => assert.fail("read the caches"), open: async () => assert.fail("opened a cache") };
  const worker = startWorker({ caches });
  worker.pyodideUp.resolve();
  worker.self.onmessage({ data: init([], []) });
  await until(() => worker.posted.length);
  assert.equal(worker.posted[0].ok, true, JSON.stringify(worker.posted[0]));
  assert.deepEqual(withoutFetches(worker)[0], ["loadPyodide", ["indexURL"]]);
  assert.ok(!worker.log.some(([what]) => what === "runPython"));
});
