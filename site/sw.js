// The course's service worker: the runtime and the files a build pins cache-first (neither changes under its
// name), pages network-first with the cache as the offline fallback. Files a page loads after it opened carry
// ?v=<build>; one from an earlier build is answered from the cache or refused (409), never with a newer
// build's file, so a page never mixes two builds. Every answer carries the cross-origin isolation headers
// (see isolated()), and the worker's scripts carry the policy that keeps learner code on this site
// (see WORKER_POLICIES). The build prepends MANIFEST:
// {version, assets, runtimeCache, siteCache, workers: {path: kind}, runtime: [paths], site: [paths]}, paths
// relative to this file.
/* global MANIFEST */

const RUNTIME = new Set(MANIFEST.runtime);
const SCOPE = new URL("./", self.location).href;
// A dedicated worker ignores the page's <meta> policy and obeys only the headers of its own script, which a
// static host cannot send: without this, learner code (from js import fetch, pyodide.http, XMLHttpRequest)
// could reach any origin. Pyodide needs only this site's files and the right to compile WebAssembly; the
// legacy Pyodide 0.17 (the classic worker) also evaluates strings to convert Python objects to JavaScript.
// Neither widens where a request can go: connect-src stays 'self'.
const WORKER_POLICY = "default-src 'self'; connect-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
  + "worker-src 'none'";
const POLICY_OF_KIND = {
  module: WORKER_POLICY,
  classic: WORKER_POLICY.replace("'wasm-unsafe-eval'", "'wasm-unsafe-eval' 'unsafe-eval'"),
};
const WORKER_POLICIES = new Map(Object.entries(MANIFEST.workers).map(([path, kind]) => [path, POLICY_OF_KIND[kind]]));

// The stop flag, Stop's interrupt without SharedArrayBuffer (see site/page/runtime-client.js): a page raises its
// worker's flag with a message; the worker's Python asks for it with a synchronous request to STOP_FLAG_PATH<token>, answered
// "2" once (then the flag is down again) or "0". Flags live in memory: they matter only while code runs, and
// a worker asking every 0.1 s keeps this service worker awake.
const STOP_FLAG_PATH = MANIFEST.stopFlag.path;
const raisedFlags = new Set();

self.addEventListener("message", (event) => {
  const { data } = event;
  if (data && data.type === MANIFEST.stopFlag.message && typeof data.token === "string") raisedFlags.add(data.token);
  if (MANIFEST.snapshot && data && data.type === MANIFEST.snapshot.message && data.bytes instanceof Uint8Array) {
    event.waitUntil(keepSnapshot(data.bytes).catch(() => {})); // a copy not stored: the next start makes another
  }
});

/**
 * A fresh interpreter's memory (Pyodide 314's memory snapshot, 31 MB), from a page whose worker made it: gzipped
 * (about 6 MB) into this build's runtime cache, under MANIFEST.snapshot.path, where every later start of any lesson
 * reads it (site/worker/worker-handler.js, startInterpreter). Here rather than in the page's worker, so that it
 * is stored even when the page closes right after its first output. It goes with the runtime cache when the
 * runtime changes, so a copy never outlives the Pyodide that made it (which also checks that on restoring).
 */
async function keepSnapshot(bytes) {
  const cache = await ownCache(MANIFEST.runtimeCache);
  if (!cache || typeof CompressionStream !== "function") return;
  const packed = await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"))).blob();
  await cache.put(new URL(MANIFEST.snapshot.path, SCOPE).href,
    new Response(packed, { headers: { "Content-Type": "application/octet-stream" } }));
}

/** The answer to a worker asking for its stop flag ("?reset" lowers it). */
function stopFlag(token, query) {
  const raised = raisedFlags.delete(token) && query !== "?reset";
  return new Response(raised ? "2" : "0", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
}

// This build's caches exist from install on, so a worker that finds another build's site cache knows a newer build
// has taken over (ownCache): still answering a page or a worker it controlled, it never brings back a cache the
// newer worker dropped.
self.addEventListener("install", (event) => {
  event.waitUntil(Promise.all([caches.open(MANIFEST.runtimeCache), caches.open(MANIFEST.siteCache)]));
  self.skipWaiting();
});

/** The cache of this build named `name`; null once a newer build's worker has taken over and dropped it. A cache
 * the learner freed (site/page/offline.js) is opened again: no other build's cache says this worker is superseded. */
async function ownCache(name) {
  if (await caches.has(name)) return caches.open(name);
  const names = await caches.keys();
  const newer = names.some((other) => other.startsWith("course-site-") && other !== MANIFEST.siteCache);
  return newer ? null : caches.open(name);
}

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const keep = new Set([MANIFEST.runtimeCache, MANIFEST.siteCache]);
    for (const name of await caches.keys()) {
      if (name.startsWith("course-") && !keep.has(name)) await caches.delete(name);
    }
    await dropOldWheels();
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  const path = decodePath(request.url.slice(SCOPE.length).split(/[?#]/)[0]);
  if (path.startsWith(STOP_FLAG_PATH)) {
    event.respondWith(stopFlag(path.slice(STOP_FLAG_PATH.length), new URL(request.url).search));
    return;
  }
  const build = new URL(request.url).searchParams.get("v");
  // Storing a copy is done after answering (waitUntil), so the page never waits for the disk.
  const later = (promise) => event.waitUntil(promise);
  let answer;
  if (RUNTIME.has(path)) answer = runtimeFile(request, later);
  else if (build && build !== MANIFEST.assets) answer = earlierBuild(request);
  else if (build && MANIFEST.hashes[path]) answer = sameBuild(request, path, later);
  else answer = networkFirst(request, path, later);
  event.respondWith(answer.then((response) => isolated(response, WORKER_POLICIES.get(path))));
});

// The runtime bar counts the bytes of the runtime this service worker hands out: the worker reads each file
// once, the way Pyodide loads it, and no separate pass is needed to count. Every window of the site hears it;
// a page listens only while its own Python loads (site/page/runtime-client.js). A file downloading is counted
// as it streams; a file already cached is told whole at once and answered as the cache holds it, with no stream
// of ours between the disk and the worker (a warm start has nothing to wait for, so nothing to show growing).
const RUNTIME_BYTES = "runtime-bytes";

/** A runtime file: from the cache, told whole; else from the network, counted as it streams, and cached. */
async function runtimeFile(request, later) {
  const url = request.url.split(/[?#]/)[0];
  const cache = await ownCache(MANIFEST.runtimeCache);
  const cached = cache && await cache.match(request, { ignoreSearch: true });
  if (cached) {
    later(tellPages({ type: RUNTIME_BYTES, url, whole: true }));
    return cached;
  }
  const response = await fetch(request);
  if (response.ok && cache) later(cache.put(request, response.clone()));
  return counted(response, url);
}

/** Post message to every window of the site. */
function tellPages(message) {
  return self.clients.matchAll({ type: "window" }).then((pages) => {
    for (const page of pages) page.postMessage(message);
  });
}

/** The response, its body counted as it streams, each file's count told to the site's pages (10 times a second at most). */
function counted(response, url) {
  if (!response.body || response.status !== 200) return response;
  let bytes = 0;
  let told = 0;
  const tell = () => tellPages({ type: RUNTIME_BYTES, url, bytes });
  const body = response.body.pipeThrough(new TransformStream({
    transform(chunk, controller) {
      bytes += chunk.byteLength;
      controller.enqueue(chunk);
      if (Date.now() - told > 100) {
        told = Date.now();
        tell();
      }
    },
    flush: tell,
  }));
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * The response with the headers that make a page cross-origin isolated (a static host cannot send them).
 * Isolation gives the page SharedArrayBuffer, so Stop can interrupt Python instead of ending its worker.
 * Everything the course loads is its own, so requiring CORP of cross-origin resources costs nothing.
 * A worker's script also gets its policy (WORKER_POLICIES).
 */
function isolated(response, policy) {
  if (response.type === "opaque" || response.type === "opaqueredirect" || response.status === 0) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-encoding"); // a fetched body is decoded already
  headers.delete("content-length");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  headers.set("Cross-Origin-Resource-Policy", "same-origin");
  if (policy) headers.set("Content-Security-Policy", policy);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Lessons' wheels (runtime/packages/) share the runtime cache without renaming it, since a wheel's name pins its
 * bytes: so a rebuild that adds a package keeps the runtime. Those this build no longer ships are dropped here.
 */
async function dropOldWheels() {
  if (!(await caches.has(MANIFEST.runtimeCache))) return; // opening it would create it
  const cache = await caches.open(MANIFEST.runtimeCache);
  for (const request of await cache.keys()) {
    const path = decodePath(request.url.slice(SCOPE.length).split(/[?#]/)[0]);
    if (path.startsWith("runtime/packages/") && !RUNTIME.has(path)) await cache.delete(request);
  }
}

/** A URL path as the manifest lists it: a lesson folder named "03 atención" arrives as "03%20atenci%C3%B3n". */
function decodePath(path) {
  try {
    return decodeURIComponent(path);
  } catch (error) {
    return path; // not ours to understand: it matches nothing in the manifest
  }
}

async function earlierBuild(request) {
  const cached = await caches.match(request);
  return cached || new Response("This page belongs to an earlier build of the course: reload it.",
    { status: 409, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * A file of this build. Its name pins its bytes (?v=<build>, and its sha256 is in the manifest), so a copy already
 * in this build's cache is the answer and the network is not asked. Otherwise it comes from the network only if
 * its bytes are this build's (else the cache, else 409).
 */
async function sameBuild(request, path, later) {
  const cache = await ownCache(MANIFEST.siteCache);
  const cached = cache && await cache.match(request, { ignoreSearch: true });
  if (cached && await sha256(await cached.clone().arrayBuffer()) === MANIFEST.hashes[path]) return cached;
  try {
    const response = await fetch(request);
    const body = await response.arrayBuffer();
    if (response.ok && await sha256(body) === MANIFEST.hashes[path]) {
      const headers = new Headers(response.headers);
      headers.delete("content-encoding"); // the body is decoded already
      headers.delete("content-length");
      const fresh = new Response(body, { status: response.status, headers });
      if (cache) later(cache.put(request, fresh.clone()));
      return fresh;
    }
  } catch (error) {
    // offline: the cache below answers
  }
  return cached || earlierBuild(request);
}

/** The hex sha256 of bytes. */
async function sha256(body) {
  return Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", body)),
    (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function networkFirst(request, path, later) {
  const cache = await ownCache(MANIFEST.siteCache);
  try {
    const response = await fetch(request);
    if (cache && response.ok && (path === "" || path.endsWith("/") || MANIFEST.site.includes(path))) {
      later(cache.put(request, response.clone()));
    }
    return response;
  } catch (error) {
    const from = cache || caches; // a superseded worker still answers offline from whatever cache holds the page
    const cached = await from.match(request, { ignoreSearch: true })
      || (path === "" || path.endsWith("/") ? await from.match(new URL(path + "index.html", SCOPE).href) : null);
    if (cached) return cached;
    throw error;
  }
}
