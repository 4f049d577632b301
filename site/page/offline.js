// The index page's "available offline" control: download every file of the course into the caches the
// service worker reads, with a progress bar in bytes; and free that space again.
import { formatBytes, format } from "./strings.js";

export class OfflineControl {
  constructor(element, page) {
    this.element = element;
    this.page = page;
    this.strings = page.strings;
    this.status = element.querySelector(".offline-status");
    this.progress = element.querySelector("progress");
    this.saveButton = element.querySelector("[data-action=offline-save]");
    this.freeButton = element.querySelector("[data-action=offline-free]");
    // offline.json sits at the site's top; an index in a language sits one folder down (data.root says how far).
    this.manifestURL = new URL((page.data.root || "") + "offline.json", document.baseURI).href;
    if (!("caches" in window) || !/^https?:$/.test(location.protocol)) {
      this.status.textContent = this.strings.offline_unavailable;
      return;
    }
    element.querySelector(".offline-actions").hidden = false;
    this.saveButton.addEventListener("click", () => this.save());
    this.freeButton.addEventListener("click", () => this.free());
    this.refresh();
  }

  async manifest() {
    const response = await fetch(this.manifestURL, { cache: "no-cache" });
    if (!response.ok) throw new Error("offline.json: HTTP " + response.status);
    return response.json();
  }

  async missing(manifest) {
    const missing = [];
    for (const file of manifest.files) {
      // caches.open() would create the cache: look before opening, so a freed course stays freed.
      const cache = (await caches.has(file.cache)) ? await caches.open(file.cache) : null;
      const url = new URL(file.path, this.manifestURL).href;
      if (!cache || !(await cache.match(url, { ignoreSearch: true }))) missing.push(file);
    }
    return missing;
  }

  total(manifest) {
    return manifest.files.reduce((sum, file) => sum + file.size, 0);
  }

  async refresh() {
    try {
      const manifest = await this.manifest();
      const missing = await this.missing(manifest);
      this.setReady(missing.length === 0, manifest);
    } catch (error) {
      this.status.textContent = format(this.strings.offline_failed, { reason: error.message });
    }
  }

  setReady(ready, manifest) {
    this.element.dataset.state = ready ? "ready" : "online";
    this.status.textContent = ready
      ? format(this.strings.offline_ready, { size: formatBytes(this.total(manifest), this.page.language) })
      : format(this.strings.offline_not_yet, { size: formatBytes(this.total(manifest), this.page.language) });
    this.freeButton.disabled = false;
  }

  async save() {
    this.saveButton.disabled = true;
    this.element.dataset.state = "saving";
    try {
      const manifest = await this.manifest();
      const total = this.total(manifest);
      const missing = new Set((await this.missing(manifest)).map((file) => file.path));
      let loaded = total - manifest.files.filter((file) => missing.has(file.path)).reduce((s, f) => s + f.size, 0);
      this.progress.hidden = false;
      this.progress.max = total;
      const show = () => {
        this.progress.value = loaded;
        this.status.textContent = format(this.strings.offline_saving, {
          loaded: formatBytes(loaded, this.page.language), total: formatBytes(total, this.page.language),
        });
      };
      show();
      for (const file of manifest.files.filter((each) => missing.has(each.path))) {
        const url = new URL(file.path, this.manifestURL).href;
        const response = await fetch(url, { cache: "no-cache" });
        if (!response.ok) throw new Error(file.path + ": HTTP " + response.status);
        const chunks = [];
        const reader = response.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          loaded += value.byteLength;
          show();
        }
        const headers = new Headers(response.headers);
        headers.delete("content-encoding");
        headers.delete("content-length");
        await (await caches.open(file.cache)).put(url, new Response(new Blob(chunks), { headers }));
      }
      this.progress.hidden = true;
      this.setReady(true, manifest);
    } catch (error) {
      this.progress.hidden = true;
      this.element.dataset.state = "failed";
      this.status.textContent = format(this.strings.offline_failed, { reason: error.message });
    } finally {
      this.saveButton.disabled = false;
    }
  }

  async free() {
    for (const name of await caches.keys()) if (name.startsWith("course-")) await caches.delete(name);
    await this.refresh();
  }
}
