// The runtime bar's sentence as Python's state changes, on stand-in elements (node --test).
import assert from "node:assert/strict";
import { test } from "node:test";

import { RuntimeBar } from "../../site/page/runtime-bar.js";

const STRINGS = {
  crashed: "Python stopped unexpectedly.",
  runtime_ready: "Python is ready.",
  runtime_stopped: "Python is stopped.",
  runtime_loading: "Loading {loaded} of {total}.",
  runtime_starting: "Starting.",
  runtime_idle: "Starts on a cell: {size} the first time.",
  runtime_idle_stored: "Starts on a cell: nothing to download.",
};

/** A bar as the build writes it, with stand-ins for its status, progress and buttons. */
function bar() {
  globalThis.document = { body: { dataset: {} }, documentElement: { style: { setProperty() {} } } };
  globalThis.ResizeObserver = class { observe() {} }; // the bar's height, which only a browser lays out
  const parts = {
    ".runtime-status": { textContent: "", addEventListener() {} },
    ".runtime-progress": { hidden: true },
    "[data-action=stop]": { disabled: true, addEventListener() {} },
    "[data-action=run-all]": { addEventListener() {} },
  };
  const element = { hidden: true, querySelector: (selector) => parts[selector] };
  return { runtime: new RuntimeBar(element, { strings: STRINGS, language: "en" }, {}), status: parts[".runtime-status"] };
}

test("what a restart said after Python stopped unexpectedly clears at the next run, Python being back", () => {
  const { runtime, status } = bar();
  runtime.showState({ state: "lost" });
  assert.equal(status.textContent, "Python stopped unexpectedly.");
  runtime.showState({ state: "ready" });
  runtime.sayRestarted("Python stopped unexpectedly. Cells 1, 2 came back.");
  runtime.setBusy(false);
  assert.equal(status.textContent, "Python stopped unexpectedly. Cells 1, 2 came back.");
  runtime.setBusy(true);
  assert.equal(status.textContent, "Python is ready.");
});

test("a sentence that is not about a restart stays through runs, and a stopped download is said", () => {
  const { runtime, status } = bar();
  runtime.showState({ state: "ready" });
  runtime.say("Open the page from a server.");
  runtime.setBusy(true);
  assert.equal(status.textContent, "Open the page from a server.");
  runtime.showProgress({ loaded: 1e6, total: 4e6 });
  runtime.showState({ state: "idle" });
  assert.equal(status.textContent, "Python is stopped.");
});

test("while Python restarts after Stop, every loading line says why, until the restart says what came back", () => {
  const { runtime, status } = bar();
  runtime.showState({ state: "idle" });
  runtime.sayRestarting("Restarting to stop the code; cells 1, 2 will run again.");
  runtime.showProgress({ loaded: 1e6, total: 4e6 });
  assert.match(status.textContent, /^Restarting to stop the code; cells 1, 2 will run again\. Loading .+ of .+\.$/);
  runtime.showState({ state: "ready" });
  assert.equal(status.textContent, "Restarting to stop the code; cells 1, 2 will run again. Python is ready.");
  runtime.sayRestarted("Cells 1, 2 were run again.");
  runtime.showProgress({ loaded: 4e6, total: 4e6 });
  assert.equal(status.textContent, "Starting.");
});

test("before the start the bar states what will really be downloaded, and once Python starts it no longer says so", () => {
  const { runtime, status } = bar();
  document.body.dataset.runtime = "idle";
  runtime.sayDownload(0);
  assert.equal(status.textContent, "Starts on a cell: nothing to download.");
  runtime.sayDownload(3_240_000);
  assert.equal(status.textContent, "Starts on a cell: 3.2 MB the first time.");
  runtime.showState({ state: "loading" });
  runtime.sayDownload(0);
  assert.equal(status.textContent, "Starts on a cell: 3.2 MB the first time.");
});

test("a start that failed says, in the page's words, what failed and what to do, with no English reason", async () => {
  const { runtime, status } = bar();
  const strings = {
    ...STRINGS, runtime_failed: "Python не вдалося запустити: {reason}",
    runtime_failed_offline: "Python не вдалося запустити: пристрій офлайн.",
    runtime_failed_worker: "Python не вдалося запустити в цьому браузері.",
  };
  runtime.strings = strings;
  runtime.showState({ state: "failed", reason: "the worker failed to start", kind: "offline" });
  assert.equal(status.textContent, "Python не вдалося запустити: пристрій офлайн.");
  runtime.showState({ state: "failed", reason: "the worker failed to start", kind: "worker" });
  assert.equal(status.textContent, "Python не вдалося запустити в цьому браузері.");
  const { failureKind } = await import("../../site/page/runtime-client.js");
  assert.equal(failureKind(new Error("course library: HTTP 404")), "missing");
  assert.equal(failureKind(new TypeError("Failed to fetch")), "network");
  assert.equal(failureKind(Object.assign(new Error("the worker failed to start"), { kind: "worker" })), "worker");
  assert.equal(failureKind(new Error("ModuleNotFoundError: No module named 'course'")), "python");
});
