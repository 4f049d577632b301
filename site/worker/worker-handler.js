/* The worker side of the page <-> Python protocol, shared by both worker entries.
 *
 * Messages in:  {type: "init", id, indexURL, libraryURL, packages, files, prefetch, label}
 *               {type: "run", id, cell, code}
 *               {type: "check", id, code, checker}      grade a solution with a checker module
 *               {type: "call", id, name, args}          call a py/ function "module:name" (explorables)
 *               {type: "interrupt"}                     ask the running loop to stop between steps
 *                                                       (answered at once, not queued behind the request)
 * Messages out: {type: "progress", loaded, total}
 *               {type: "output", id, items}      streamed while a request runs
 *               {type: "result", id, ok, value | error}
 *
 * Only API shared by every Pyodide generation is used: loadPyodide({indexURL}),
 * loadPackage, runPythonAsync. Everything else happens in Python.
 */
self.startCourseWorker = function startCourseWorker(loadPyodide, early) {
  "use strict";
  let pyodide = null;
  let current = null;
  let queue = Promise.resolve();

  const post = (message) => self.postMessage(message);

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

  async function init(message) {
    if (message.prefetch) await prefetch(message.indexURL, message.files);
    pyodide = await loadPyodide({ indexURL: message.indexURL });
    if (message.packages.length) await pyodide.loadPackage(message.packages);
    const response = await fetch(message.libraryURL);
    if (!response.ok) throw new Error("course library: HTTP " + response.status);
    const library = await response.text();
    await pyodide.runPythonAsync([
      "import json, os, sys",
      "import js",
      "_course_root = os.path.join(os.getcwd(), 'course-lib')",
      "for _name, _text in json.loads(" + JSON.stringify(library) + ").items():",
      "    _path = os.path.join(_course_root, _name)",
      "    os.makedirs(os.path.dirname(_path), exist_ok=True)",
      "    with open(_path, 'w', encoding='utf-8') as _file:",
      "        _file.write(_text)",
      "sys.path.insert(0, _course_root)",
      // Importing NumPy takes a while in WebAssembly: do it now, not in the learner's first cell.
      ...message.packages.map((name) => "import " + name),
      "from course.runner import Session as _Session",
      "from course.exercise import grade as _course_grade",
      "from course.explorables import call as _course_call",
      "_course_session = _Session(send=lambda items: js.courseEmit(json.dumps(items)), cell_label="
        + JSON.stringify(message.label) + ")",
    ].join("\n"));
    return { python: pyodide.runPython("import sys; sys.version.split()[0]") };
  }

  async function run(message) {
    const json = await pyodide.runPythonAsync(
      "json.dumps(await _course_session.run(" + JSON.stringify(message.cell) + ", "
        + JSON.stringify(message.code) + "))");
    return JSON.parse(String(json));
  }

  async function check(message) {
    const json = await pyodide.runPythonAsync(
      "json.dumps(_course_grade(" + JSON.stringify(message.code) + ", " + JSON.stringify(message.checker) + "))");
    return JSON.parse(String(json));
  }

  async function call(message) {
    const json = await pyodide.runPythonAsync(
      "json.dumps(_course_call(" + JSON.stringify(message.name) + ", json.loads("
        + JSON.stringify(JSON.stringify(message.args)) + ")))");
    return JSON.parse(String(json));
  }

  const handlers = { init, run, check, call };

  async function handle(message) {
    const handler = handlers[message.type];
    current = message.id;
    try {
      if (!handler) throw new Error("unknown request type " + message.type);
      if (message.type !== "init" && pyodide === null) throw new Error("Python is not loaded");
      post({ type: "result", id: message.id, ok: true, value: await handler(message) });
    } catch (error) {
      post({ type: "result", id: message.id, ok: false, error: String(error && error.message || error) });
    } finally {
      current = null;
    }
  }

  self.onmessage = (event) => {
    if (event.data.type === "interrupt") {
      // Runs while a cell awaits between steps: Python is idle then, so this call is safe.
      if (pyodide !== null) pyodide.runPython("import course.control\ncourse.control.request_stop()");
      return;
    }
    queue = queue.then(() => handle(event.data));
  };
  for (const event of early || []) self.onmessage(event); // messages that came while this script loaded
};
