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

/** A stand-in Pyodide that records what the handler asks of it; every Python request succeeds. */
function fakePyodide(log) {
  return {
    FS: { writeFile: (path, bytes) => log.push(["writeFile", path, Array.from(bytes)]) },
    globals: { set: () => {} },
    loadPackage: async (names) => log.push(["loadPackage", names]),
    runPythonAsync: async (code) => {
      log.push(["python", code.includes("_course_wheels_module") ? "install" : code.includes("Handler(") ? "boot" : "request"]);
      return JSON.stringify({ ok: true, value: {} });
    },
  };
}

/** The handler in a worker-like global of its own; returns what it posted, what it did, and Pyodide's gate. */
function startWorker() {
  const log = [];
  const posted = [];
  const pyodideUp = deferred();
  const fetch = async (url) => {
    log.push(["fetch", String(url)]);
    const body = String(url).endsWith(".whl") ? new Uint8Array([80, 75]) : null;
    return { ok: true, json: async () => ({}), arrayBuffer: async () => body.buffer };
  };
  // A worker's global is `self`: the handler reads both names.
  const self = vm.createContext({ postMessage: (message) => posted.push(message), fetch, URL });
  self.self = self;
  vm.runInContext(HANDLER, self);
  self.startCourseWorker(async () => {
    log.push(["loadPyodide"]);
    await pyodideUp.promise;
    return fakePyodide(log);
  });
  return { self, log, posted, pyodideUp };
}

function init(micropip, wheels) {
  return { type: "init", id: 1, indexURL: INDEX, libraryURLs: [INDEX + "../assets/course-lib.json"], packages: ["numpy"],
    files: [], micropip, wheels };
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
