// Two tabs of one lesson, one saved entry: what another tab saves reaches this one as a `storage` event. A block
// whose shown work differs from what is now stored says so and offers to take the other tab's version or keep
// its own; the version not kept is set aside as "older" (the export of the learner's work keeps it), so nothing
// is overwritten without the learner knowing. Code blocks (cells, an exercise's editor) and quizzes use this.
import { asideRecord, freeName, localStore, parseKey } from "./storage.js";

/** The text stored under `name` right now; null when none is (or storage cannot be read). */
export function storedText(name, storage = localStore()) {
  try {
    return storage.getItem(name);
  } catch (error) {
    return null;
  }
}

/** Set aside `text`, an entry of `name` (as JSON), as "older" work next to it; true if it was. */
export function setAsideText(name, text, storage = localStore()) {
  const parsed = parseKey(name);
  if (!parsed) return false;
  try {
    storage.setItem(freeName(parsed.lesson, parsed.kind + ":" + parsed.id, storage),
      JSON.stringify(asideRecord(parsed, "older", text)));
    return true;
  } catch (error) {
    return false; // storage full: the page's unsaved notice already offers the export
  }
}

/**
 * What an exercise's saved state ({attempts, result, hints, solutionShown}) becomes when another tab saved
 * `theirs` over `mine`: the checks, hints and solution either tab has seen, and the newest check's result. What is
 * open now (hintsShown, solutionOpen) is the newest save's, so that a start-over in one tab folds the other too.
 */
export function mergeExerciseStates(mine, theirs) {
  return {
    ...mine, ...theirs,
    attempts: Math.max(mine.attempts, theirs.attempts),
    hints: Math.max(mine.hints, theirs.hints),
    solutionShown: Boolean(mine.solutionShown || theirs.solutionShown),
  };
}

export class OtherTab {
  /**
   * @param {string} name       the entry's storage key
   * @param {Function} onStored called with the entry's new text each time another tab writes it
   */
  constructor(name, onStored) {
    this.name = name;
    this.note = null;
    this.known = storedText(name); // what this tab last read or wrote (another tab may change it)
    window.addEventListener("storage", (event) => {
      if (event.key === name || event.key === null) onStored(storedText(name));
    });
  }

  stored() {
    return storedText(this.name);
  }

  /**
   * Before this tab writes: work another tab saved since this one last looked is set aside as "older" (it stays
   * in the exported work), so that no tab's work is overwritten unseen, even if its notice went unread.
   */
  beforeWrite() {
    const text = this.stored();
    if (text !== null && text !== this.known) setAsideText(this.name, text);
  }

  /** This tab wrote (or took) what is stored now: it is no longer another tab's. */
  wrote() {
    this.known = this.stored();
  }

  /** Set aside `text` (this tab's version, about to be replaced) as "older". */
  setAside(text) {
    return setAsideText(this.name, text);
  }

  /** The stored entry matches what this tab shows: nothing to ask. */
  agreed(text) {
    this.known = text;
    if (this.note) this.note.remove();
  }

  /**
   * Say after `anchor` that another tab saved different work (`texts`: {message, take, keep}), with a button to
   * take that version and one to keep this tab's; each button removes the note, then calls `take` or `keep`.
   */
  ask(anchor, texts, { take, keep }) {
    if (!this.note) {
      this.note = document.createElement("p");
      this.note.className = "saved-notice other-tab";
      this.note.setAttribute("role", "alert");
    }
    const note = this.note;
    const button = (action, label, onClick) => {
      const element = document.createElement("button");
      element.type = "button";
      element.className = "button";
      element.dataset.action = action;
      element.textContent = label;
      element.addEventListener("click", () => { note.remove(); onClick(); });
      return element;
    };
    note.replaceChildren(texts.message + " ", button("take-other-tab", texts.take, take), " ",
      button("keep-this-tab", texts.keep, keep));
    anchor.after(note);
  }
}
