// The page's only door to the Python worker: typed messages, one promise per request.

import { controlled, notCached } from "./service.js";

// Loading is declared failed when the worker has said nothing (no progress, no answer) for this long.
const STALL_MS = 30000;
// WebKit does not end a worker that runs WebAssembly when it is terminated: the old one keeps a core busy,
// so the page says so, and a fresh Python there is given longer before it is declared stalled.
const AGENT = typeof navigator === "undefined" ? "" : navigator.userAgent; // no navigator: the scheduler's tests
const WEBKIT = /AppleWebKit/.test(AGENT) && !/Chrome|Chromium|Edg\//.test(AGENT);
const LEAVES_WORKERS_RUNNING = WEBKIT;
// WebKit does not let a second request for a file share the download of a first one still under way (measured in
// WebKitGTK 2.50: with the page fetching ahead, the server sent every runtime file twice; Chromium and Firefox
// sent each once), so there the worker's start fetches for itself, without the page's head start (fetchAhead).
const SHARES_DOWNLOADS = !WEBKIT;

// Stop's three ways (README, "Stop"): the stop request (a loop ends between steps), the interrupt
// (KeyboardInterrupt, through the shared buffer or else the stop flag) and the restart. The stop flag: the
// service worker answers <site>/<runtime.stopFlag.path><token>, and the page raises the flag with a message
// of type runtime.stopFlag.message to the service worker, since the worker cannot read a message while Python
// runs. The build writes both names into the page's runtime manifest and sw.js's (service_worker.STOP_FLAG).

/** Whether a service worker controls this page: it keeps a stop flag for its worker and counts the runtime's bytes. */
function stopFlags() {
  return typeof navigator !== "undefined" && "serviceWorker" in navigator && Boolean(navigator.serviceWorker.controller);
}

/** A request the worker could not answer, as the worker described it: {type, message, text} (for Python's own
 * failures, the exception's type, its message and the traceback); `message` is the text, for a page to show. */
export class RequestError extends Error {
  constructor(described) {
    const error = typeof described === "object" && described ? described : { type: "Error", text: String(described) };
    super(String(error.text || error.message || "").trim());
    this.name = "RequestError";
    this.type = error.type;
    this.described = error;
  }
}

/** A performance mark, which benchmarks/peers.py reads to tell when each step of a start ended. */
function mark(name) {
  if (typeof performance !== "undefined" && performance.mark) performance.mark(name); // none: the scheduler's tests
}

/** An unguessable name for one worker's flag. */
function randomToken() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * What kind of failure kept Python from starting, for the page to say in its language what failed and what to do:
 * "offline" (the browser says it is), "missing" (the site answered a file with an HTTP error), "network" (a
 * download failed), "worker" (the worker's script did not load), "stalled" (no answer), else "python" (Python's
 * own error while it started, whose text is the reason).
 */
export function failureKind(error) {
  if (typeof navigator !== "undefined" && navigator.onLine === false) return "offline";
  if (error && error.kind) return error.kind;
  const message = String((error && error.message) || "");
  if (/\bHTTP \d{3}\b/.test(message)) return "missing";
  if (error instanceof TypeError || /failed to fetch|networkerror|load failed/i.test(message)) return "network";
  return "python";
}

export class Stopped extends Error {
  constructor() {
    super("stopped");
    this.name = "Stopped";
  }
}

export class RuntimeClient extends EventTarget {
  /**
   * @param {object} config  {assetsURL, runtimeURL, build (this build's id), libraries (files under assets/: the
   *                          course library, the lesson's package), runtime: the runtime manifest, label, language
   *                          (the lesson's: course.numbers writes in it), stalledMessage, registered (a promise:
   *                          whether the service worker's registration succeeded)}
   */
  constructor(config) {
    super();
    this.config = config;
    this.worker = null;
    this.ready = null;
    this.pending = new Map();
    this.nextId = 1;
    this.state = "idle";
    this.session = 0; // how many Pythons have become ready: a new number means a fresh namespace
    // Stop by interrupt, in the first way this page allows (see raiseInterrupt): (a) memory shared with the
    // worker, which only a cross-origin isolated page has (the service worker isolates the pages it serves);
    // (b) a flag the service worker keeps and the worker's Python asks for (stopBy "flag", once the worker
    // said it reaches it). Where neither works (no service worker, a page opened from disk) Stop ends the worker.
    this.interruptBuffer = self.crossOriginIsolated && typeof SharedArrayBuffer === "function"
      ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    this.stopBy = null; // "buffer", "flag" or null, as the worker's init answered
    this.stopToken = null; // names this worker's flag to the service worker
    this.stopSeen = null; // resolves requestStop's promise when the worker acknowledges the stop request ("stop-seen")
    this.spinning = 0; // workers ended here that the browser may still be running
    this.leavesWorkersRunning = LEAVES_WORKERS_RUNNING;
    this.startedFrom = null; // how the last Python started: "snapshot" (a fresh one's memory restored) or "start"
    this.firstLook = null; // cacheState's one look at the runtime cache
  }

  /** Start the worker and load Python once; resolves when Python is ready. */
  start() {
    if (!this.ready) this.ready = this.load();
    return this.ready;
  }

  /**
   * What the service worker's runtime cache holds for this page's start, from one look at it, taken once (the page
   * asks as it opens; the first start asks again and gets the same answer at once): `bytes`, the sizes of the
   * runtime files it lacks (what the start would download), and `complete`, whether it holds every file the start
   * reads (its wheels too).
   */
  cacheState() {
    if (!this.firstLook) this.firstLook = this.lookInCache();
    return this.firstLook;
  }

  async lookInCache() {
    const { runtime } = this.config;
    const url = (name) => new URL(name, this.config.runtimeURL).href;
    const sizes = new Map(runtime.files.map((file) => [url(file.name), file.size]));
    const missing = await notCached(runtime.cache, [...sizes.keys(), ...(runtime.wheels || []).map((wheel) => url(wheel.file))]);
    return { bytes: missing.reduce((sum, name) => sum + (sizes.get(name) || 0), 0), complete: missing.length === 0 };
  }

  /**
   * Follow the bytes of each runtime file downloaded for this page's start, as "progress" events against the bytes
   * really downloaded: those the service worker hands this page's worker (sw.js, counted()) and those the page
   * fetches ahead of it (fetchAhead). A file the cache answers whole leaves the total, so a start from the cache
   * announces no download. Returns {note(url, bytes), stop()}: note() is fetchAhead's way in.
   */
  countDownloads(files) {
    const sizes = new Map(files.map((file) => [new URL(file.name, this.config.runtimeURL).href, file.size]));
    const served = new Map(); // url → bytes downloaded so far: a file read twice counts once, and never goes back
    const stored = new Set(); // urls the cache answered whole before any download of theirs
    const tell = () => {
      this.lastHeard = Date.now();
      if (!served.size) return; // nothing downloaded yet: no count to show
      let loaded = 0;
      let total = 0;
      for (const bytes of served.values()) loaded += bytes;
      for (const [url, size] of sizes) if (!stored.has(url)) total += size;
      this.dispatchEvent(new CustomEvent("progress", { detail: { loaded: Math.min(loaded, total), total } }));
    };
    const note = (url, bytes) => {
      if (!sizes.has(url)) return;
      served.set(url, Math.max(bytes, served.get(url) || 0));
      tell();
    };
    const onMessage = (event) => {
      const data = event.data;
      if (!data || data.type !== "runtime-bytes" || !sizes.has(data.url)) return;
      if (!data.whole) note(data.url, data.bytes);
      else if (served.has(data.url)) note(data.url, sizes.get(data.url)); // downloaded, then read again
      else {
        stored.add(data.url);
        tell();
      }
    };
    if (!stopFlags()) return { note, stop: () => {} };
    const container = navigator.serviceWorker;
    container.addEventListener("message", onMessage);
    container.startMessages();
    return { note, stop: () => container.removeEventListener("message", onMessage) };
  }

  /**
   * A first start's head start: the page asks at once for every file the worker's start reads (its glue, the course
   * library, the runtime files and the lesson's wheels, all from this site), instead of the worker asking for them
   * one after another as each step needs the next, and instead of nothing at all while the page waits for the
   * service worker's control (the worker waits for it, because its script's policy, which keeps learner code on
   * this site, comes from the service worker). Under a service worker these fetches go through it, which caches
   * them; before it, or without one, they fill the browser's HTTP cache, where the worker's own requests find them.
   * Each body is counted as it streams and let go chunk by chunk, never held whole. A host that forbids storing its
   * answers (no-store) would make this a second download: then the rest is called off. A failure is left to the
   * worker's own fetch, which meets it again and reports it.
   */
  fetchAhead(urls, note) {
    const calledOff = new AbortController();
    for (const url of urls) {
      fetch(url, { credentials: "same-origin", signal: calledOff.signal }).then(async (response) => {
        if (/no-store/i.test(response.headers.get("Cache-Control") || "")) calledOff.abort();
        if (!response.ok || !response.body) return;
        const reader = response.body.getReader();
        for (let bytes = 0; ;) {
          const { done, value } = await reader.read();
          if (done) return;
          bytes += value.byteLength;
          note(url, bytes);
        }
      }).catch(() => {});
    }
  }

  /**
   * The one start behind start(): fetch ahead on a first start, wait for the service worker's control, create the
   * worker and send it "init"; resolves when Python is ready, and leaves the client "failed" if it never is.
   */
  async load() {
    const { runtime } = this.config;
    this.setState("loading");
    mark("course-load-began");
    const version = "?v=" + this.config.build; // the worker loads its glue and the libraries at this build
    const url = new URL(runtime.entry + version, this.config.assetsURL).href; // the build names the entry file
    const libraryURLs = this.config.libraries.map((name) => new URL(name + version, this.config.assetsURL).href);
    const downloads = this.countDownloads(runtime.files);
    const firstVisit = !(await this.cacheState()).complete; // the runtime was not all in the cache as the page opened
    if (SHARES_DOWNLOADS && this.session === 0 && firstVisit) {
      const runtimeURL = (name) => new URL(name, this.config.runtimeURL).href;
      this.fetchAhead([url, ...libraryURLs, ...runtime.files.map((file) => runtimeURL(file.name)),
        ...(runtime.wheels || []).map((wheel) => runtimeURL(wheel.file))], downloads.note);
    }
    await controlled(3000, this.config.registered); // let the service worker see (and cache) every runtime file
    this.worker = runtime.worker === "module" ? new Worker(url, { type: "module" }) : new Worker(url);
    mark("course-worker-created");
    this.worker.onmessage = (event) => {
      this.lastHeard = Date.now();
      this.receive(event.data);
    };
    this.worker.onerror = (event) => this.fail(event.message || "the worker failed to start", "worker");
    this.stopBy = null;
    this.stopToken = this.interruptBuffer || !stopFlags() ? null : randomToken();
    this.lastHeard = Date.now();
    const watchdog = setInterval(() => {
      if (Date.now() - this.lastHeard > STALL_MS * (1 + this.spinning)) {
        this.fail(this.config.stalledMessage || "no answer from the worker", "stalled");
      }
    }, 1000);
    try {
      const value = await this.request({
        type: "init",
        indexURL: this.config.runtimeURL,
        libraryURLs,
        packages: runtime.packages,
        files: runtime.files,
        micropip: runtime.micropip,
        wheels: runtime.wheels,
        label: this.config.label,
        language: this.config.language,
        interruptBuffer: this.interruptBuffer,
        snapshot: this.snapshotPlace(firstVisit),
        stopFlagURL: this.stopToken ? new URL("../" + this.config.runtime.stopFlag.path + this.stopToken, this.config.assetsURL).href : null,
      });
      clearInterval(watchdog);
      downloads.stop();
      this.stopBy = value.stopBy || null;
      this.session += 1;
      this.startedFrom = value.startedFrom || "start";
      if (this.startedFrom === "snapshot") mark("course-python-from-snapshot");
      mark("course-python-ready");
      this.setState("ready");
      return value;
    } catch (error) {
      clearInterval(watchdog);
      downloads.stop();
      if (!(error instanceof Stopped)) {
        if (this.worker) this.worker.terminate();
        this.worker = null;
        this.ready = null; // the next Run tries again
        error.kind = failureKind(error);
        this.setState("failed", { reason: error.message, kind: error.kind });
      }
      throw error;
    }
  }

  /**
   * Where a fresh interpreter's memory is kept for later starts to restore ({cache, url, make}; null where the
   * runtime makes none: only Pyodide 314's manifest names a place). `make`: whether a fresh start copies itself,
   * which only a start from a cached runtime does, so that the first visit's first output pays nothing for it.
   */
  snapshotPlace(firstVisit) {
    const { runtime } = this.config;
    if (!runtime.snapshot) return null;
    const url = new URL("../" + runtime.snapshot.path, this.config.assetsURL).href;
    return { cache: runtime.cache, url, make: !firstVisit };
  }

  /** Run one cell; onOutput receives output items as Python prints them. */
  async run(cell, code, onOutput) {
    await this.start();
    return this.request({ type: "run", cell, code }, onOutput);
  }

  /** Grade a solution with an exercise's checker, in its own namespace. */
  async check(code, checker) {
    await this.start();
    return this.request({ type: "check", code, checker });
  }

  /** Call a py/ function ("module:name") with JSON-ready keyword arguments; resolves to its JSON result. */
  async call(name, args = {}) {
    await this.start();
    return this.request({ type: "call", name, args });
  }

  /** Unbind the names these cells' code binds (before a Run all runs them); resolves to the names. */
  release(codes) {
    return this.request({ type: "release", codes });
  }

  /**
   * Ask the running loop to end between two steps (loops that yield see it; plain Python does not).
   * Resolves true when the worker saw the request within `waitMs` (its Python was waiting between steps).
   */
  requestStop(waitMs = 0) {
    if (!this.worker) return Promise.resolve(false);
    const seen = new Promise((resolve) => {
      this.stopSeen = resolve;
      setTimeout(() => resolve(false), waitMs);
    });
    this.worker.postMessage({ type: "stop" });
    return seen;
  }

  /** Whether raiseInterrupt can reach this worker's Python (through the shared buffer or the stop flag). */
  get canInterrupt() {
    return Boolean(this.worker && this.stopBy);
  }

  /** Raise KeyboardInterrupt in whatever Python runs now; false where the page cannot. */
  raiseInterrupt() {
    if (!this.canInterrupt) return false;
    if (this.stopBy === "buffer") {
      this.interruptBuffer[0] = 2; // SIGINT, seen within milliseconds
      return true;
    }
    const controller = stopFlags() && navigator.serviceWorker.controller;
    const { message } = this.config.runtime.stopFlag;
    if (controller) controller.postMessage({ type: message, token: this.stopToken }); // seen at the next poll
    return Boolean(controller);
  }

  /** End whatever runs by ending the worker; pending requests reject with Stopped. */
  terminate() {
    if (this.worker) {
      this.worker.terminate();
      if (this.leavesWorkersRunning) this.spinning += 1;
    }
    this.worker = null;
    this.ready = null;
    this.stopBy = null;
    for (const { reject } of this.pending.values()) reject(new Stopped());
    this.pending.clear();
    this.setState("idle");
  }

  /** Send one typed request to the worker; resolves to its value, rejects with what the worker described. */
  request(message, onOutput) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onOutput });
      this.worker.postMessage({ ...message, id });
    });
  }

  /** A message from the worker: a stop's acknowledgement, a request's streamed output, or its result. */
  receive(message) {
    if (message.type === "stop-seen") {
      if (this.stopSeen) this.stopSeen(true);
      return;
    }
    if (message.type === "snapshot") {
      this.keepSnapshot(message.bytes);
      return;
    }
    const entry = this.pending.get(message.id);
    if (!entry) return;
    if (message.type === "output") {
      if (entry.onOutput) entry.onOutput(message.items);
    } else if (message.type === "result") {
      this.pending.delete(message.id);
      if (message.ok) entry.resolve(message.value);
      else entry.reject(new RequestError(message.error));
    }
  }

  /**
   * A fresh interpreter's memory, from the worker (its handOverSnapshot), moved on to the service worker, which
   * compresses and stores it in the runtime's cache for every later start (sw.js, keepSnapshot) and finishes
   * even if this page closes. Without a service worker it is dropped: there is no cache of its to keep it in.
   */
  keepSnapshot(bytes) {
    const controller = stopFlags() && navigator.serviceWorker.controller;
    if (!controller || !(bytes instanceof Uint8Array)) return;
    try {
      controller.postMessage({ type: this.config.runtime.snapshot.message, bytes }, [bytes.buffer]);
    } catch (error) {
      controller.postMessage({ type: this.config.runtime.snapshot.message, bytes });
    }
  }

  /**
   * The worker died or went silent: "failed" while Python was loading, "lost" once it had been ready; `kind` (see
   * failureKind) goes with the error.
   */
  fail(reason, kind) {
    const lost = this.state === "ready";
    for (const { reject } of this.pending.values()) reject(Object.assign(new Error(reason), { kind }));
    this.pending.clear();
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.ready = null;
    this.stopBy = null;
    this.setState(lost ? "lost" : "failed", { reason, kind: failureKind({ message: reason, kind }) });
  }

  /** Move to `state` (idle, loading, ready, failed, lost) and tell the page with a "state" event. */
  setState(state, detail = {}) {
    this.state = state;
    this.dispatchEvent(new CustomEvent("state", { detail: { state, ...detail } }));
  }
}
