// Worker entry for the legacy Pyodide distribution, which needs importScripts.
importScripts("../runtime/pyodide.js", "worker-handler.js");

self.startCourseWorker(self.loadPyodide);
