// Worker entry for the legacy Pyodide distribution, which needs importScripts.
// The shared handler is loaded at the same build as this entry (the page passed it as ?v=...).
importScripts("../runtime/pyodide.js", "worker-handler.js" + self.location.search);

self.startCourseWorker(self.loadPyodide);
