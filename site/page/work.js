// Export all the learner's work in the course as a versioned JSON receipt, and merge one back.
import { format } from "./strings.js";

const FORMAT = "attention-course-work";
const VERSION = 1;
const KEY = /^course:v1:[A-Za-z0-9_.-]+:(cell|quiz|exercise|exercise-code):[A-Za-z0-9_.-]+$/;

export function collect(storage = window.localStorage) {
  const entries = {};
  for (let index = 0; index < storage.length; index += 1) {
    const name = storage.key(index);
    if (KEY.test(name)) entries[name] = JSON.parse(storage.getItem(name));
  }
  return { format: FORMAT, version: VERSION, exported: new Date().toISOString(), entries };
}

/** The receipt's entries if it is one of ours; otherwise throws an Error whose message says what is wrong. */
export function validate(text, strings) {
  let receipt;
  try {
    receipt = JSON.parse(text);
  } catch (error) {
    throw new Error(strings.import_not_json);
  }
  if (!receipt || receipt.format !== FORMAT || typeof receipt.entries !== "object" || receipt.entries === null) {
    throw new Error(strings.import_foreign);
  }
  if (receipt.version !== VERSION) throw new Error(format(strings.import_version, { version: receipt.version }));
  for (const [name, value] of Object.entries(receipt.entries)) {
    if (!KEY.test(name) || typeof value !== "object" || value === null) {
      throw new Error(format(strings.import_bad_entry, { name }));
    }
  }
  return receipt.entries;
}

export class WorkControl {
  constructor(element, page) {
    this.element = element;
    this.strings = page.strings;
    this.status = element.querySelector(".work-status");
    element.querySelector(".work-actions").hidden = false;
    element.querySelector("[data-action=export]").addEventListener("click", () => this.exportWork());
    element.querySelector("input[type=file]").addEventListener("change", (event) => this.importWork(event.target));
  }

  exportWork() {
    const receipt = collect();
    const blob = new Blob([JSON.stringify(receipt, null, 2)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "attention-course-work.json";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    this.status.textContent = format(this.strings.export_done, { n: Object.keys(receipt.entries).length });
  }

  async importWork(input) {
    const file = input.files && input.files[0];
    if (!file) return;
    try {
      const entries = validate(await file.text(), this.strings);
      for (const [name, value] of Object.entries(entries)) window.localStorage.setItem(name, JSON.stringify(value));
      this.element.dataset.state = "imported";
      this.status.textContent = format(this.strings.import_done, { n: Object.keys(entries).length });
    } catch (error) {
      this.element.dataset.state = "refused";
      this.status.textContent = format(this.strings.import_refused, { reason: error.message });
    } finally {
      input.value = "";
    }
  }
}
