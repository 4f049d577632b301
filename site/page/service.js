// Registering the service worker, and asking the caches what is already stored.

/** Register ../sw.js (relative to the assets folder); resolves to whether a worker controls the page. */
export function registerServiceWorker(assetsURL) {
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return Promise.resolve(false);
  return navigator.serviceWorker.register(new URL("../sw.js", assetsURL).href).then(() => true, () => false);
}

/**
 * Wait (at most `limit` ms) until a service worker controls this page, so the runtime it fetches is cached; no
 * wait once `registered` (registerServiceWorker's promise) says no service worker is coming (blocked, refused).
 */
export function controlled(limit = 3000, registered = Promise.resolve(true)) {
  if (!("serviceWorker" in navigator) || navigator.serviceWorker.controller) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, limit);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    navigator.serviceWorker.addEventListener("controllerchange", done, { once: true });
    registered.then((ok) => ok || done());
  });
}

/**
 * Whether the service worker that controls this page is the one that will stay: once the browser has looked for
 * a newer sw.js (a conditional request: a few hundred bytes when nothing changed; offline, no look), none is
 * installing or waiting, or the newer one took control within `limit` ms. False without a controller.
 */
export async function settledServiceWorker(limit = 10000) {
  if (!("serviceWorker" in navigator) || !navigator.serviceWorker.controller) return false;
  const registration = await navigator.serviceWorker.getRegistration().catch(() => null);
  if (!registration) return false;
  await registration.update().catch(() => {}); // offline: the worker in control is the one there is
  if (!registration.installing && !registration.waiting) return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), limit);
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      clearTimeout(timer);
      resolve(true);
    }, { once: true });
  });
}

/** The URLs the named cache does not hold: all of them where there are no caches, or no such cache. */
export async function notCached(cacheName, urls) {
  if (!("caches" in self) || !cacheName) return urls;
  try {
    if (!(await caches.has(cacheName))) return urls;
    const cache = await caches.open(cacheName);
    const held = await Promise.all(urls.map((url) => cache.match(url, { ignoreSearch: true }))); // looked up together
    return urls.filter((url, index) => !held[index]);
  } catch (error) {
    return urls;
  }
}
