// A stand-in for the browser's localStorage, for the node tests of saved work.
export class MemoryStorage {
  constructor(items = {}) { this.items = new Map(Object.entries(items)); }

  get length() { return this.items.size; }

  key(index) { return [...this.items.keys()][index]; }

  getItem(name) { return this.items.has(name) ? this.items.get(name) : null; }

  setItem(name, value) { this.items.set(name, String(value)); }

  removeItem(name) { this.items.delete(name); }
}
