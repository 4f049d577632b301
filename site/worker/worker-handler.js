/* The worker side of the page <-> Python protocol, shared by both worker entries.
 *
 * The requests, their fields and their replies are documented once, in py/course/worker.py: every message but
 * "init" and "stop" is handed unchanged, as JSON, to that handler (the same one the build uses), and its reply
 * goes back as {type: "result", id, ok, value | error}, the error as the handler described it ({type, message,
 * text}; the page's RequestError keeps it so). What only this side adds:
 *   init     also carries indexURL, libraryURLs, files, micropip, wheels (what to load before Python
 *            can answer), snapshot ({cache, url, make}: where a fresh interpreter's memory is kept, and whether
 *            a fresh start copies itself, see startInterpreter; null on a runtime without snapshots), and
 *            interruptBuffer (a Uint8Array on a SharedArrayBuffer, only on a cross-origin isolated page: the page
 *            writes 2 (SIGINT) into it and Pyodide raises KeyboardInterrupt in the running code) or stopFlagURL
 *            (the stop flag the service worker keeps for this worker where there is no such buffer, see
 *            stopFlag); it answers with stopBy: "buffer", "flag" or null, and startedFrom: "snapshot" or "start".
 *   stop     is handled at once, not queued behind the running request, and acknowledged with {type: "stop-seen"}
 *            (only a worker whose Python is waiting between steps can see it).
 *   output   {type: "output", id, items} streams while a request runs. (The runtime's download is counted by the
 *            page, site/page/runtime-client.js, not here.)
 *   snapshot {type: "snapshot", bytes} follows a fresh start's init answer: its memory, for later starts
 *            (handOverSnapshot).
 * Only API shared by every Pyodide generation is used: loadPyodide({indexURL}), loadPackage, runPythonAsync,
 * runPython, globals.set, and Emscripten's FS (cwd, mkdirTree, writeFile); and, where Pyodide has them, its
 * snapshots (startInterpreter).
 *
 * The parts, in the order a worker meets them: startCourseWorker (the entry's one call), startPython ("init"),
 * handleRequest (every other request, one at a time), handleStop ("stop", at once). One object, the worker's
 * `course` state, is what they share.
 */
"use strict";

// Where Pyodide keeps the interrupt buffer it reads (0.17: interrupt_buffer; later: Py_EmscriptenSignalBuffer).
const COURSE_BUFFER_NAMES = ["Py_EmscriptenSignalBuffer", "interrupt_buffer"];

// The folder the course library and the lesson's own package are written to (writeLibrary), under Python's cwd.
const COURSE_LIBRARY_FOLDER = "course-lib";
// Puts that folder on Python's path and builds the one request handler of course.worker.
const COURSE_BOOT = [
  "import json, os, sys",
  "import js",
  "sys.path.insert(0, os.path.join(os.getcwd(), '" + COURSE_LIBRARY_FOLDER + "'))",
  "from course.worker import Handler",
  "_course_handler = Handler(send=lambda items: js.courseEmit(json.dumps(items)))",
].join("\n");
// Every request reaches Python as JSON data in a variable, through one fixed line of code: a run is awaited
// (a cell may await), every other request is answered at once, without runPythonAsync's look for imports. Stop
// has a variable of its own: it is answered while a queued request may still be on its way to reading its own.
const COURSE_HANDLE = "await _course_handler.handle_json(_course_request)";
const COURSE_HANDLE_SYNC = "_course_handler.handle_now_json(_course_request)";
const COURSE_HANDLE_NOW = "_course_handler.handle_now_json(_course_urgent)";
const COURSE_INSTALL = "from course import wheels as _course_wheels_module\n"
  + "_course_wheels_module.install_on_import(json.loads(_course_wheels))\ndel _course_wheels, _course_wheels_module";
// A cell's import of micropip, which the worker then loads (see loadMicropipFor).
const IMPORTS_MICROPIP = /^[ \t]*(?:import|from)[ \t]+micropip\b/m;

/** The entry's one call: the worker's state, its output hook, its offline fetch, and its message handler. */
self.startCourseWorker = function startCourseWorker(loadPyodide, early) {
  const course = {
    loadPyodide,
    pyodide: null,
    snapshotCopy: null, // a fresh interpreter's memory, handed over once init is answered (handOverSnapshot)
    startedFrom: null, // "snapshot" or "start": how the Python of the last try of init began
    booted: false, // the course library is installed and its handler built
    current: null, // the id of the request that runs now
    queue: Promise.resolve(),
    interruptBuffer: null,
    flag: null, // the stop flag: see stopFlag
    micropip: [], // what loadPackage loads to get micropip; empty for a lesson without packages: it is not shipped
    post: (message) => self.postMessage(message),
  };
  // Python calls this with a JSON list of output items while a cell runs.
  self.courseEmit = (json) => course.post({ type: "output", id: course.current, items: JSON.parse(String(json)) });
  answerRuntimeFilesOffline();
  self.onmessage = (event) => {
    if (event.data.type === "stop") handleStop(course, event.data);
    else course.queue = course.queue.then(() => handleRequest(course, event.data));
  };
  for (const event of early || []) self.onmessage(event); // messages that came while this script loaded
};

/**
 * Some browsers fail a dedicated worker's fetch while offline before the service worker can answer it: then
 * answer runtime files (which never change under one name) from the cache. Online this costs nothing.
 */
function answerRuntimeFilesOffline() {
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
}

/**
 * "init": load Pyodide, the lesson's packages, the course library and the lesson's wheels, then run init's own
 * request. A start from a snapshot that fails at any step is tried once more afresh, and the snapshot is dropped:
 * a copy that restores but cannot go on (a package that will not load into it, say) must not fail every start.
 */
async function startPython(course, message) {
  try {
    return await startPythonOnce(course, message);
  } catch (error) {
    if (course.startedFrom !== "snapshot") throw error;
    await forgetSnapshot(message.snapshot).catch(() => {});
    return startPythonOnce(course, { ...message, snapshot: null }); // no copy made: that one could fail alike
  }
}

/**
 * One try of init. The library and the wheels download while Pyodide loads, so the first start waits for the
 * longest of them, not for their sum.
 */
async function startPythonOnce(course, message) {
  course.booted = false;
  const wanted = message.wheels || [];
  const library = fetchLibrary(message.libraryURLs);
  const wheels = fetchWheels(wanted, message.indexURL);
  for (const download of [library, wheels]) download.catch(() => {}); // a failure is thrown where it is awaited
  const interpreter = await startInterpreter(course.loadPyodide, message.indexURL, message.snapshot);
  const pyodide = course.pyodide = interpreter.pyodide;
  course.startedFrom = interpreter.from;
  course.snapshotCopy = interpreter.copy; // handed over once the page has init's answer (handleRequest)
  const stopBy = connectStop(course, message);
  // The lesson's packages load while the library boots and the wheels install, none of the three importing
  // another's: what loadPackage spends waiting (files, WebAssembly compiled) is not lost. On the legacy runtime that
  // is little, about 25 ms; its loadPackage is mostly work on this thread (docs/benchmarks.md).
  const packages = message.packages.length ? pyodide.loadPackage(message.packages) : null;
  if (packages) packages.catch(() => {}); // thrown where it is awaited, below
  course.micropip = (message.micropip || []).map((name) => (name.endsWith(".whl") ? new URL(name, message.indexURL).href : name));
  writeLibrary(pyodide, await library);
  pyodide.runPython(COURSE_BOOT);
  if (wanted.length) installWheels(pyodide, await wheels);
  await packages;
  course.booted = true;
  const value = await runInPython(course, { ...message, interruptBuffer: undefined }); // the buffer stays in JavaScript
  return { ...value, stopBy, startedFrom: interpreter.from };
}

/**
 * Pyodide, restored from the snapshot of a fresh interpreter's memory that the runtime's cache keeps
 * (`snapshot`: {cache, url, make}; see handOverSnapshot), where there is one this Pyodide accepts: a restore skips
 * Python's own start-up, most of loadPyodide()'s work. Else Pyodide starts afresh, and if `make` and it can (Pyodide
 * 314 can; the legacy 0.17 has no snapshots, and the page asks none of it) its memory is copied at once, before
 * anything of the course or the lesson runs in it, for handOverSnapshot. The page asks for a copy only once the
 * runtime is cached: making one slows a start a little (loadPyodide's _makeSnapshot, and the 31 MB copy), and a
 * first visit's first output is the one start that must not wait.
 * Resolves to {pyodide, from: "snapshot" or "start", copy}.
 */
async function startInterpreter(loadPyodide, indexURL, snapshot) {
  const stored = snapshot ? await readSnapshot(snapshot).catch(() => null) : null;
  if (stored) {
    try {
      const pyodide = await loadPyodide({ indexURL, _loadSnapshot: stored });
      // The copy holds the random module's state as seeded when the copy was made: seed it afresh, as a start does.
      pyodide.runPython("import random\nrandom.seed()");
      return { pyodide, from: "snapshot", copy: null };
    } catch (error) {
      // Made by another build of Pyodide (it checks), or damaged: start afresh; the new copy replaces it.
    }
  }
  const make = Boolean(snapshot && snapshot.make);
  const pyodide = await loadPyodide(make ? { indexURL, _makeSnapshot: true } : { indexURL });
  let copy = null;
  try {
    if (make && typeof pyodide.makeMemorySnapshot === "function") copy = pyodide.makeMemorySnapshot();
  } catch (error) {
    // this Pyodide cannot copy itself: every start is a fresh one, as before
  }
  return { pyodide, from: "start", copy };
}

/**
 * Hand the fresh interpreter's memory to the page, which hands it to the service worker to compress and store
 * (sw.js, keepSnapshot): there it outlives this worker and the page, so a page closed right after its first output
 * still leaves the next start its copy. Sent once init has been answered, so it never delays that answer; the
 * bytes are moved, not copied.
 */
function handOverSnapshot(course) {
  const bytes = course.snapshotCopy;
  course.snapshotCopy = null;
  try {
    self.postMessage({ type: "snapshot", bytes }, [bytes.buffer]);
  } catch (error) {
    self.postMessage({ type: "snapshot", bytes }); // a buffer that cannot be moved is copied
  }
}

/** Drop the stored snapshot (one that restored, then failed a start). */
async function forgetSnapshot({ cache, url }) {
  if (self.caches && await caches.has(cache)) await (await caches.open(cache)).delete(url);
}

/** The stored snapshot's bytes, or null: none stored, no cache of the service worker's, or no way to unpack it. */
async function readSnapshot({ cache, url }) {
  if (!self.caches || typeof DecompressionStream !== "function" || !(await caches.has(cache))) return null;
  const response = await (await caches.open(cache)).match(url);
  if (!response || !response.body) return null;
  const unpacked = response.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(unpacked).arrayBuffer());
}

/** How the page can interrupt this Python: its shared buffer ("buffer"), the stop flag ("flag"), or not at all (null). */
function connectStop(course, message) {
  const { pyodide } = course;
  if (typeof pyodide.setInterruptBuffer !== "function") return null;
  if (message.interruptBuffer) {
    course.interruptBuffer = message.interruptBuffer;
    pyodide.setInterruptBuffer(course.interruptBuffer);
    return "buffer";
  }
  if (!message.stopFlagURL) return null;
  course.flag = stopFlag(pyodide, message.stopFlagURL);
  course.interruptBuffer = course.flag && course.flag.buffer;
  return course.flag ? "flag" : null;
}

/** One request at a time (the queue): init starts Python, the others go to course.worker's handler. */
async function handleRequest(course, message) {
  course.current = message.id;
  try {
    if (message.type !== "init" && !course.booted) throw new Error("Python is not loaded");
    if (message.type === "run") await loadMicropipFor(course, message.code);
    const value = message.type === "init" ? await startPython(course, message) : await runInPython(course, message);
    course.post({ type: "result", id: message.id, ok: true, value });
    if (course.snapshotCopy) handOverSnapshot(course);
  } catch (error) {
    // Python's failure goes to the page as Python described it ({type, message, text}); the worker's own, alike.
    const text = String(error && error.message || error);
    course.post({ type: "result", id: message.id, ok: false,
      error: (error && error.python) || { type: (error && error.name) || "Error", message: text, text } });
  } finally {
    course.current = null;
  }
}

/** A request handed to course.worker's handler as JSON; resolves to its value, throws what Python described. */
async function runInPython(course, message) {
  // A Stop that arrived after the previous request ended must not interrupt this one.
  if (course.flag) course.flag.reset();
  else if (course.interruptBuffer) course.interruptBuffer[0] = 0;
  course.pyodide.globals.set("_course_request", JSON.stringify(message));
  const reply = JSON.parse(String(message.type === "run" ? await course.pyodide.runPythonAsync(COURSE_HANDLE)
    : course.pyodide.runPython(COURSE_HANDLE_SYNC)));
  if (!reply.ok) throw Object.assign(new Error(reply.error.text.trim()), { python: reply.error });
  return reply.value;
}

/**
 * "stop", handled at once: it runs while a cell awaits between steps, when Python is idle, so this call is safe;
 * acknowledged first, so the page knows this worker heard it.
 */
function handleStop(course, message) {
  course.post({ type: "stop-seen" });
  if (!course.booted) return;
  course.pyodide.globals.set("_course_urgent", JSON.stringify(message));
  try {
    course.pyodide.runPython(COURSE_HANDLE_NOW);
  } catch (error) {
    // The page's interrupt landed in this short call instead of the cell: hand it on to the cell.
    if (course.interruptBuffer) course.interruptBuffer[0] = 2;
  }
}

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
function stopFlag(pyodide, url) {
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
  const name = module && COURSE_BUFFER_NAMES.find((candidate) => module[candidate] === buffer);
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

/** The course library and the lesson's own package, merged: one folder's files by name. */
async function fetchLibrary(urls) {
  const parts = await Promise.all(urls.map(async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error("course library: HTTP " + response.status);
    return response.json();
  }));
  return Object.assign({}, ...parts);
}

/** Emscripten's FS of this Pyodide (current ones expose it; the legacy 0.17 keeps it on its module). */
function fileSystem(pyodide) {
  return pyodide.FS || pyodide._module.FS;
}

/**
 * The course library and the lesson's own package (one folder's files by name) written into one folder under
 * Python's cwd, which COURSE_BOOT puts on the path.
 */
function writeLibrary(pyodide, files) {
  const FS = fileSystem(pyodide);
  const root = FS.cwd().replace(/\/$/, "") + "/" + COURSE_LIBRARY_FOLDER;
  for (const [name, text] of Object.entries(files)) {
    const path = root + "/" + name;
    FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    FS.writeFile(path, text);
  }
}

/**
 * The lesson's wheels, fetched from the site into memory while Pyodide loads (Python is needed only to install
 * them). Nothing here resolves dependencies: the build listed them all.
 */
function fetchWheels(wheels, indexURL) {
  return Promise.all(wheels.map(async (wheel) => {
    const response = await fetch(new URL(wheel.file, indexURL).href);
    if (!response.ok) throw new Error(wheel.file + ": HTTP " + response.status);
    return { ...wheel, bytes: new Uint8Array(await response.arrayBuffer()) };
  }));
}

/**
 * Each fetched wheel written to /tmp, where course.wheels checks its sha256 and unpacks it into site-packages
 * with zipfile the first time a cell imports one of its modules (install_on_import): no micropip, and nothing
 * resolved (the build listed every wheel, dependencies first).
 */
function installWheels(pyodide, fetched) {
  const FS = fileSystem(pyodide);
  const wheels = fetched.map(({ bytes, ...wheel }) => {
    const path = "/tmp/" + wheel.file.split("/").pop();
    FS.writeFile(path, bytes);
    return { ...wheel, path };
  });
  pyodide.globals.set("_course_wheels", JSON.stringify(wheels));
  pyodide.runPython(COURSE_INSTALL);
}

/**
 * micropip, for learner code that imports it (a lesson's own wheels need none): loaded from the site's own files
 * (a name in the legacy distribution, wheel files beside current Pyodide) the first time a cell imports it.
 */
async function loadMicropipFor(course, code) {
  if (!course.micropip.length || typeof code !== "string" || !IMPORTS_MICROPIP.test(code)) return;
  const names = course.micropip;
  course.micropip = [];
  await course.pyodide.loadPackage(names);
}
