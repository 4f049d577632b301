// Worker entry for current Pyodide, which runs only in a module worker.
// The shared handler is loaded at the same build as this entry (the page passed it as ?v=...), alongside Pyodide's
// own entry rather than after it. Messages that arrive while they load are kept and handed over, not dropped.
const early = [];
self.onmessage = (event) => early.push(event);
const [{ loadPyodide }] = await Promise.all([
  import("../runtime/pyodide.mjs"),
  import("./worker-handler.js" + self.location.search),
]);
self.startCourseWorker(loadPyodide, early);
