// Worker entry for current Pyodide, which runs only in a module worker.
import { loadPyodide } from "../runtime/pyodide.mjs";
import "./worker-handler.js";

self.startCourseWorker(loadPyodide);
