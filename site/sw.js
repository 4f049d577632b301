// The course's service worker: the runtime cache-first (it never changes under one name), pages and
// assets network-first with the cache as the offline fallback. The build prepends MANIFEST:
// {version, runtimeCache, siteCache, runtime: [paths], site: [paths]} with paths relative to this file.
/* global MANIFEST */

const RUNTIME = new Set(MANIFEST.runtime);
const SCOPE = new URL("./", self.location).href;

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const keep = new Set([MANIFEST.runtimeCache, MANIFEST.siteCache]);
    for (const name of await caches.keys()) {
      if (name.startsWith("course-") && !keep.has(name)) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return;
  const path = request.url.slice(SCOPE.length).split(/[?#]/)[0];
  if (RUNTIME.has(path)) event.respondWith(cacheFirst(request, MANIFEST.runtimeCache));
  else event.respondWith(networkFirst(request, path));
});

async function cacheFirst(request, cacheName) {
  const cache = await caches.open(cacheName);
  const cached = await cache.match(request, { ignoreSearch: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function networkFirst(request, path) {
  const cache = await caches.open(MANIFEST.siteCache);
  try {
    const response = await fetch(request);
    if (response.ok && (path === "" || path.endsWith("/") || MANIFEST.site.includes(path))) {
      await cache.put(request, response.clone());
    }
    return response;
  } catch (error) {
    const cached = await cache.match(request, { ignoreSearch: true })
      || (path === "" || path.endsWith("/") ? await cache.match(new URL(path + "index.html", SCOPE).href) : null);
    if (cached) return cached;
    throw error;
  }
}
