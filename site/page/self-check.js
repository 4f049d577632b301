// A self-check list: each item is ticked when every quiz it names is answered right and every exercise it names
// is passed, as the learner's saved work says. It reads that work when the page starts (the quizzes and exercises
// have restored and re-graded theirs by then) and again whenever a block saves a result ("work-saved"), here or
// in another tab of the course (a `storage` event).
import { findAll } from "./find.js";
import { exerciseIsPassed, quizIsRight } from "./fits.js";
import { key, load, parseKey } from "./storage.js";
import { format } from "./strings.js";

const MARKS = { done: "✓", todo: "" }; // "todo" is an empty ring (style.css)

export class SelfCheck {
  constructor(element, data, page) {
    this.element = element;
    this.data = data;
    this.page = page;
    this.strings = page.strings;
    this.items = findAll(element, ".self-check-item");
    this.summary = findAll(element, ".self-check-summary")[0];
    findAll(element, ".self-check-rule")[0].hidden = false;
    document.addEventListener("work-saved", () => this.update());
    window.addEventListener("storage", (event) => { if (this.counts(event.key)) this.update(); });
    this.update();
  }

  /** Whether the entry `name` (null: storage was cleared) is one this list counts: a quiz or an exercise of its lesson. */
  counts(name) {
    if (name === null) return true;
    const parsed = parseKey(name);
    return Boolean(parsed) && parsed.lesson === this.page.data.lesson && ["quiz", "exercise"].includes(parsed.kind);
  }

  /** [done, total] for one item: how many of the blocks it names have their result saved. */
  progress(entry) {
    const { lesson, quizzes: blocks } = this.page.data;
    // A quiz answered right before a retry stays ticked: taking an answer back to try again loses nothing earned.
    const quizzes = entry.quiz.map((id) => quizIsRight(blocks.find((quiz) => quiz.key === id),
      load(key(lesson, "quiz", id)), { earned: true }));
    const exercises = entry.exercise.map((id) => exerciseIsPassed(load(key(lesson, "exercise", id))));
    const results = [...quizzes, ...exercises];
    return [results.filter(Boolean).length, results.length];
  }

  /** Tick each item whose named quizzes and exercises are all done, and count the ticked items. */
  update() {
    let done = 0;
    let total = 0;
    this.data.items.forEach((entry, index) => {
      const item = this.items[index];
      const [right, named] = this.progress(entry);
      if (!item || named === 0) return; // an item that names only cells is not checked, and says so itself
      const state = right === named ? "done" : "todo";
      item.dataset.state = state;
      findAll(item, ".self-check-mark")[0].textContent = MARKS[state];
      findAll(item, ".self-check-state")[0].textContent = this.strings["self_check_" + state] + " ";
      findAll(item, ".self-check-progress")[0].textContent = state === "todo" && named > 1
        ? " " + format(this.strings.self_check_item_progress, { done: right, total: named }) : "";
      done += state === "done" ? 1 : 0;
      total += 1;
    });
    this.summary.textContent = format(this.strings.self_check_summary, { done, total });
    this.summary.hidden = total === 0;
  }
}
