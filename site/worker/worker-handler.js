/* The worker side of the page <-> Python protocol, shared by both worker entries.
 *
 * The requests, their fields and their replies are documented once, in py/course/worker.py: every message but
 * "init" and "stop" is handed unchanged, as JSON, to that handler (the same one the build uses), and its reply
 * goes back as {type: "result", id, ok, value | error}, the error as the handler described it ({type, message,
 * text}; the page's RequestError keeps it so). What only this side adds:
 *   init     also carries indexURL, libraryURLs, files, prefetch, micropip, wheels (what to load before Python
 *            can answer), and interruptBuffer (a Uint8Array on a SharedArrayBuffer, only on a cross-origin
 *            isolated page: the page writes 2 (SIGINT) into it and Pyodide raises KeyboardInterrupt in the running
 *            code) or stopFlagURL (the stop flag the service worker keeps for this worker where there is no such
 *            buffer, see stopFlag); it answers with stopBy: "buffer", "flag" or null.
 *   stop     is handled at once, not queued behind the running request, and acknowledged with {type: "stop-seen"}
 *            (only a worker whose Python is waiting between steps can see it).
 *   progress {type: "progress", loaded, total} while the runtime downloads; {type: "output", id, items} streams
 *            while a request runs.
 * Only API shared by every Pyodide generation is used: loadPyodide({indexURL}), loadPackage, runPythonAsync,
 * runPython, globals.set.
 */
self.startCourseWorker = function startCourseWorker(loadPyodide, early) {
  "use strict";
  let pyodide = null;
  let booted = false; // the course library is installed and its handler built
  let current = null;
  let queue = Promise.resolve();
  let interruptBuffer = null;
  let flag = null; // the stop flag: see stopFlag

  const post = (message) => self.postMessage(message);

  // Where Pyodide keeps the interrupt buffer it reads (0.17: interrupt_buffer; later: Py_EmscriptenSignalBuffer).
  const BUFFER_NAMES = ["Py_EmscriptenSignalBuffer", "interrupt_buffer"];

  /**
   * The stop flag, Stop's interrupt on pages without SharedArrayBuffer: Pyodide gets an interrupt buffer of its own,
   * and Python's eval loop, which reads it at its interrupt checks (every opcode in Pyodide 0.17, every 50 in later
   * ones), now reads it through a getter. Every CLOCK_EVERY reads the getter looks at the clock, and at most
   * every POLL_MS it asks the service worker, by a synchronous request, whether the page raised this worker's
   * flag; if so it writes 2 (SIGINT) into the buffer. So Stop reaches plain Python loops without shared memory.
   * The getter is on a named property because V8 runs those far faster than a getter on element 0 (cost:
   * benchmarks/stop_hook.py). Returns {buffer, reset()}; null when the service worker does not answer the
   * flag's URL (it does not control this worker) or this Pyodide keeps its buffer elsewhere.
   */
  function stopFlag(url) {
    const POLL_MS = 100;
    const CLOCK_EVERY = 256;
    const ask = (query) => {
      const request = new XMLHttpRequest();
      request.open("GET", url + query, false);
      request.send();
      return request.status === 200 ? request.responseText : "";
    };
    try {
      if (ask("?reset") !== "0") return null;
    } catch (error) {
      return null; // refused, or no answer at all: this worker cannot reach a flag
    }
    const buffer = new Uint8Array(1);
    pyodide.setInterruptBuffer(buffer);
    const module = pyodide._module;
    const name = module && BUFFER_NAMES.find((candidate) => module[candidate] === buffer);
    if (!name) {
      pyodide.setInterruptBuffer(undefined);
      return null;
    }
    let reads = 0;
    let next = 0;
    const poll = () => {
      const now = performance.now();
      if (now < next) return;
      next = now + POLL_MS;
      try {
        if (ask("") === "2") buffer[0] = 2;
      } catch (error) {
        // the service worker went away: Stop falls back to ending the worker
      }
    };
    Object.defineProperty(module, name, {
      configurable: true,
      get() {
        if (++reads >= CLOCK_EVERY) {
          reads = 0;
          poll();
        }
        return buffer;
      },
      set() {}, // setInterruptBuffer again: this buffer stays
    });
    return {
      buffer,
      /** Forget a Stop that came after the previous request ended; the next poll comes after POLL_MS. */
      reset() {
        buffer[0] = 0;
        next = performance.now() + POLL_MS;
        try {
          ask("?reset");
        } catch (error) {
          // as in a poll: nothing to forget
        }
      },
    };
  }

  // Python calls this with a JSON list of output items while a cell runs.
  self.courseEmit = (json) => post({ type: "output", id: current, items: JSON.parse(String(json)) });

  // Some browsers fail a dedicated worker's fetch while offline before the service worker can answer it:
  // then answer runtime files (which never change under one name) from the cache. Online this costs nothing.
  const networkFetch = self.fetch.bind(self);
  self.fetch = async (input, init) => {
    try {
      return await networkFetch(input, init);
    } catch (error) {
      const url = input instanceof Request ? input.url : String(input); // a string, a URL or a Request
      const cached = self.caches && url.includes("/runtime/") ? await caches.match(url, { ignoreSearch: true }) : null;
      if (cached) return cached;
      throw error;
    }
  };

  async function prefetch(baseURL, files) {
    // Read each runtime file once, counting bytes, so the page can show a real
    // progress bar; loadPyodide then finds them in the browser's cache.
    const total = files.reduce((sum, file) => sum + file.size, 0);
    let loaded = 0;
    let lastPost = 0;
    await Promise.all(files.map(async (file) => {
      const response = await fetch(new URL(file.name, baseURL).href);
      if (!response.ok) throw new Error(file.name + ": HTTP " + response.status);
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        loaded += value.byteLength;
        const now = Date.now();
        if (now - lastPost > 100) {
          lastPost = now;
          post({ type: "progress", loaded: Math.min(loaded, total), total });
        }
      }
    }));
    post({ type: "progress", loaded: total, total });
  }

  // Installs the course library and the lesson's package (passed in as JSON data) and builds the one request handler of course.worker.
  const BOOT = [
    "import json, os, sys",
    "import js",
    "_course_root = os.path.join(os.getcwd(), 'course-lib')",
    "for _name, _text in json.loads(_course_library).items():",
    "    _path = os.path.join(_course_root, _name)",
    "    os.makedirs(os.path.dirname(_path), exist_ok=True)",
    "    with open(_path, 'w', encoding='utf-8') as _file:",
    "        _file.write(_text)",
    "del _course_library",
    "sys.path.insert(0, _course_root)",
    "from course.worker import Handler",
    "_course_handler = Handler(send=lambda items: js.courseEmit(json.dumps(items)))",
  ].join("\n");
  // Every request reaches Python as JSON data in a variable, through one fixed line of code. Stop has a variable
  // of its own: it is answered while a queued request may still be on its way to reading its own.
  const HANDLE = "await _course_handler.handle_json(_course_request)";
  const HANDLE_NOW = "_course_handler.handle_now_json(_course_urgent)";

  /**
   * The lesson's wheels, fetched from the site into memory while Pyodide loads (Python is needed only to install
   * them). Nothing here resolves dependencies: the build listed them all.
   */
  function fetchWheels(wheels, indexURL) {
    return Promise.all(wheels.map(async (wheel) => {
      const url = new URL(wheel.file, indexURL).href;
      const response = await fetch(url);
      if (!response.ok) throw new Error(wheel.file + ": HTTP " + response.status);
      return { ...wheel, url, bytes: new Uint8Array(await response.arrayBuffer()) };
    }));
  }

  /**
   * micropip, for learner code that imports it (a lesson's own wheels need none): loaded from the site's own files
   * (a name in the legacy distribution, wheel files beside current Pyodide) the first time a cell imports it.
   */
  const IMPORTS_MICROPIP = /^[ \t]*(?:import|from)[ \t]+micropip\b/m;
  let micropip = []; // what loadPackage loads to get it; empty for a lesson without packages: it is not shipped
  async function loadMicropipFor(code) {
    if (!micropip.length || typeof code !== "string" || !IMPORTS_MICROPIP.test(code)) return;
    const names = micropip;
    micropip = [];
    await pyodide.loadPackage(names);
  }

  /**
   * Each fetched wheel written to /tmp, where course.wheels checks its sha256 and unpacks it into site-packages
   * with zipfile: no micropip, and nothing resolved (the build listed every wheel, dependencies first).
   */
  async function installWheels(fetched) {
    const FS = pyodide.FS || pyodide._module.FS;
    const wheels = fetched.map(({ bytes, url, ...wheel }) => {
      const path = "/tmp/" + wheel.file.split("/").pop();
      FS.writeFile(path, bytes);
      return { ...wheel, path };
    });
    pyodide.globals.set("_course_wheels", JSON.stringify(wheels));
    await pyodide.runPythonAsync(INSTALL);
  }
  const INSTALL = "from course import wheels as _course_wheels_module\n"
    + "_course_wheels_module.install(json.loads(_course_wheels))\ndel _course_wheels, _course_wheels_module";

  /** The course library and the lesson's own package, merged: one folder's files by name. */
  async function fetchLibrary(urls) {
    const parts = await Promise.all(urls.map(async (url) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error("course library: HTTP " + response.status);
      return response.json();
    }));
    return Object.assign({}, ...parts);
  }

  async function init(message) {
    // The library and the wheels download while Pyodide loads, so the first start waits for the longest of them,
    // not for their sum.
    const wanted = message.wheels || [];
    const library = fetchLibrary(message.libraryURLs);
    const wheels = fetchWheels(wanted, message.indexURL);
    for (const download of [library, wheels]) download.catch(() => {}); // a failure is thrown where it is awaited
    if (message.prefetch) await prefetch(message.indexURL, message.files);
    pyodide = await loadPyodide({ indexURL: message.indexURL });
    let stopBy = null;
    if (typeof pyodide.setInterruptBuffer === "function") {
      if (message.interruptBuffer) {
        interruptBuffer = message.interruptBuffer;
        pyodide.setInterruptBuffer(interruptBuffer);
        stopBy = "buffer";
      } else if (message.stopFlagURL) {
        flag = stopFlag(message.stopFlagURL);
        interruptBuffer = flag && flag.buffer;
        stopBy = flag ? "flag" : null;
      }
    }
    if (message.packages.length) await pyodide.loadPackage(message.packages);
    micropip = (message.micropip || []).map((name) => (name.endsWith(".whl") ? new URL(name, message.indexURL).href : name));
    // The course library and the lesson's own package: one folder on the path, holding both.
    pyodide.globals.set("_course_library", JSON.stringify(await library));
    await pyodide.runPythonAsync(BOOT);
    if (wanted.length) await installWheels(await wheels);
    booted = true;
    const value = await python({ ...message, interruptBuffer: undefined }); // the buffer stays in JavaScript
    return { ...value, stopBy };
  }

  async function python(message) {
    // A Stop that arrived after the previous request ended must not interrupt this one.
    if (flag) flag.reset();
    else if (interruptBuffer) interruptBuffer[0] = 0;
    pyodide.globals.set("_course_request", JSON.stringify(message));
    const reply = JSON.parse(String(await pyodide.runPythonAsync(HANDLE)));
    if (!reply.ok) throw Object.assign(new Error(reply.error.text.trim()), { python: reply.error });
    return reply.value;
  }

  async function handle(message) {
    current = message.id;
    try {
      if (message.type !== "init" && !booted) throw new Error("Python is not loaded");
      if (message.type === "run") await loadMicropipFor(message.code);
      const value = message.type === "init" ? await init(message) : await python(message);
      post({ type: "result", id: message.id, ok: true, value });
    } catch (error) {
      // Python's failure goes to the page as Python described it ({type, message, text}); the worker's own, alike.
      const text = String(error && error.message || error);
      post({ type: "result", id: message.id, ok: false,
        error: (error && error.python) || { type: (error && error.name) || "Error", message: text, text } });
    } finally {
      current = null;
    }
  }

  self.onmessage = (event) => {
    if (event.data.type === "stop") {
      // Runs while a cell awaits between steps: Python is idle then, so this call is safe.
      post({ type: "stop-seen" });
      if (booted) {
        pyodide.globals.set("_course_urgent", JSON.stringify(event.data));
        try {
          pyodide.runPython(HANDLE_NOW);
        } catch (error) {
          // The page's interrupt landed in this short call instead of the cell: hand it on to the cell.
          if (interruptBuffer) interruptBuffer[0] = 2;
        }
      }
      return;
    }
    queue = queue.then(() => handle(event.data));
  };
  for (const event of early || []) self.onmessage(event); // messages that came while this script loaded
};
