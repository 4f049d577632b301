// The page's only door to the Python worker: typed messages, one promise per request.

export class Stopped extends Error {
  constructor() {
    super("stopped");
    this.name = "Stopped";
  }
}

export class RuntimeClient extends EventTarget {
  /**
   * @param {object} config  {assetsURL, runtimeURL, runtime: manifest, label}
   */
  constructor(config) {
    super();
    this.config = config;
    this.worker = null;
    this.ready = null;
    this.pending = new Map();
    this.nextId = 1;
    this.state = "idle";
  }

  /** Start the worker and load Python once; resolves when Python is ready. */
  start() {
    if (this.ready) return this.ready;
    const { runtime } = this.config;
    const entry = runtime.worker === "module" ? "worker-module.mjs" : "worker-classic.js";
    const url = new URL(entry, this.config.assetsURL).href;
    this.worker = runtime.worker === "module" ? new Worker(url, { type: "module" }) : new Worker(url);
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => this.fail(event.message || "the worker failed to start");
    this.setState("loading");
    const cachedKey = "course-runtime-cached";
    const fingerprint = JSON.stringify(runtime.files);
    this.ready = this.request({
      type: "init",
      indexURL: this.config.runtimeURL,
      libraryURL: new URL(runtime.library, this.config.assetsURL).href,
      packages: runtime.packages,
      files: runtime.files,
      // Counting bytes means reading every file once more; skip it once this runtime is known to be cached.
      prefetch: readStorage(cachedKey) !== fingerprint,
      label: this.config.label,
    }).then((value) => {
      writeStorage(cachedKey, fingerprint);
      this.setState("ready");
      return value;
    }, (error) => {
      if (!(error instanceof Stopped)) this.setState("failed", { reason: error.message });
      throw error;
    });
    return this.ready;
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

  /** End whatever runs by ending the worker; pending requests reject with Stopped. */
  stop() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.ready = null;
    for (const { reject } of this.pending.values()) reject(new Stopped());
    this.pending.clear();
    this.setState("idle");
  }

  request(message, onOutput) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onOutput });
      this.worker.postMessage({ ...message, id });
    });
  }

  receive(message) {
    if (message.type === "progress") {
      this.dispatchEvent(new CustomEvent("progress", { detail: message }));
      return;
    }
    const entry = this.pending.get(message.id);
    if (!entry) return;
    if (message.type === "output") {
      if (entry.onOutput) entry.onOutput(message.items);
    } else if (message.type === "result") {
      this.pending.delete(message.id);
      if (message.ok) entry.resolve(message.value);
      else entry.reject(new Error(message.error));
    }
  }

  fail(reason) {
    for (const { reject } of this.pending.values()) reject(new Error(reason));
    this.pending.clear();
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.ready = null;
    this.setState("failed", { reason });
  }

  setState(state, detail = {}) {
    this.state = state;
    this.dispatchEvent(new CustomEvent("state", { detail: { state, ...detail } }));
  }
}

function readStorage(key) {
  try {
    return window.localStorage.getItem(key);
  } catch (error) {
    return null; // storage can be disabled; then every start shows its progress
  }
}

function writeStorage(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch (error) {
    // storage full or disabled: nothing is lost but the shortcut
  }
}
