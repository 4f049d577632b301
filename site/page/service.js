// Registering the service worker, and asking the caches what is already stored.

/** Register ../sw.js (relative to the assets folder); resolves to whether a worker controls the page. */
export function registerServiceWorker(assetsURL) {
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return Promise.resolve(false);
  return navigator.serviceWorker.register(new URL("../sw.js", assetsURL).href).then(() => true, () => false);
}

/** Wait (at most `limit` ms) until a service worker controls this page, so the runtime it fetches is cached. */
export function controlled(limit = 3000) {
  if (!("serviceWorker" in navigator) || navigator.serviceWorker.controller) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, limit);
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

/** Whether every URL is in the named cache. */
export async function allCached(cacheName, urls) {
  if (!("caches" in self) || !cacheName) return false;
  try {
    if (!(await caches.has(cacheName))) return false;
    const cache = await caches.open(cacheName);
    for (const url of urls) if (!(await cache.match(url, { ignoreSearch: true }))) return false;
    return true;
  } catch (error) {
    return false;
  }
}
