// Worker entry for current Pyodide, which runs only in a module worker.
import { loadPyodide } from "../runtime/pyodide.mjs";

// The shared handler is loaded at the same build as this entry (the page passed it as ?v=...). Messages that
// arrive while it loads are kept and handed over, not dropped.
const early = [];
self.onmessage = (event) => early.push(event);
await import("./worker-handler.js" + self.location.search);
self.startCourseWorker(loadPyodide, early);
