// The runtime bar at the bottom of a lesson page: what Python is doing (download progress in bytes,
// ready, failed, restarted), Run all and Stop.
import { format, formatBytes } from "./strings.js";

/**
 * What the page says when Python could not start, in its language: what failed and what the learner can do.
 * `kind` is runtime-client.js's failureKind; a stalled start and Python's own error give their reason.
 */
export function startFailureText(strings, { kind, reason }) {
  const key = "runtime_failed_" + kind;
  return strings[key] !== undefined ? format(strings[key], { reason }) : format(strings.runtime_failed, { reason });
}

export class RuntimeBar {
  /**
   * @param {Element} element  the .runtime-bar the build wrote
   * @param {object} page      {strings, language}
   * @param {object} actions   {runAll(), stop()}
   */
  constructor(element, { strings, language }, { runAll, stop }) {
    this.element = element;
    this.strings = strings;
    this.language = language;
    this.status = element.querySelector(".runtime-status");
    this.progress = element.querySelector(".runtime-progress");
    this.stopButton = element.querySelector("[data-action=stop]");
    element.querySelector("[data-action=run-all]").addEventListener("click", runAll);
    this.stopButton.addEventListener("click", stop);
    element.hidden = false;
    // The bar is fixed over the window's bottom edge: its height becomes the root's scroll padding (style.css),
    // so whatever is focused or scrolled to (an editor's cursor too) stays clear of it.
    new ResizeObserver(() => document.documentElement.style.setProperty("--runtime-bar-height",
      element.offsetHeight + "px")).observe(element);
  }

  /** Follow a runtime client's download progress and state. */
  follow(client) {
    client.addEventListener("progress", (event) => this.showProgress(event.detail));
    client.addEventListener("state", (event) => this.showState(event.detail));
  }

  say(text) {
    this.status.textContent = this.restarting ? this.restarting + " " + text : text;
    this.aboutRestart = false;
  }

  /** Say why Python starts again (Stop, or a crash) until the restart is over: each loading line follows it. */
  sayRestarting(text) {
    this.restarting = null;
    this.say(text);
    this.restarting = text;
  }

  /**
   * Before Python starts, say what its start will download: `bytes` (the runtime files its cache lacks), nothing
   * when every file is stored; the build wrote the whole runtime's size, which a visit after the first never loads.
   */
  sayDownload(bytes) {
    if (document.body.dataset.runtime !== "idle") return; // started already: the bar follows the start
    this.say(bytes ? format(this.strings.runtime_idle, { size: formatBytes(bytes, this.language) })
      : this.strings.runtime_idle_stored);
  }

  /** Say what a restart did; the next run clears it, Python being back by then. */
  sayRestarted(text) {
    this.restarting = null;
    this.say(text);
    this.aboutRestart = true;
  }

  setBusy(busy) {
    this.stopButton.disabled = !busy;
    if (busy && this.aboutRestart && document.body.dataset.runtime === "ready") this.say(this.strings.runtime_ready);
  }

  showProgress({ loaded, total }) {
    this.progress.hidden = total <= 0; // everything came from the cache: nothing to count
    this.progress.max = total;
    this.progress.value = loaded;
    this.say(loaded >= total ? this.strings.runtime_starting : format(this.strings.runtime_loading, {
      loaded: formatBytes(loaded, this.language), total: formatBytes(total, this.language),
    }));
  }

  showState({ state, reason, kind }) {
    document.body.dataset.runtime = state;
    if (state === "ready") {
      this.progress.hidden = true;
      this.say(this.strings.runtime_ready);
    } else if (state === "lost") {
      this.say(this.strings.crashed);
    } else if (state === "failed") {
      this.progress.hidden = true;
      this.say(startFailureText(this.strings, { kind, reason }));
    } else if (state === "idle") { // ended by Stop; a restart, if one follows, says what it does
      this.progress.hidden = true;
      this.say(this.strings.runtime_stopped);
    }
  }
}
