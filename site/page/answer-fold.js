// Answer first, then see: the build-time output of a cell that gives quiz answers away (`:checks:`) stays folded
// in its <details> until the learner answers all those quizzes right, runs the cell themselves, or opens the fold
// (its summary is the "show" control). What was revealed is saved, so a reload keeps it open.
import { fitsReveal, quizIsRight } from "./fits.js";
import { key, load, read, save } from "./storage.js";

export class AnswerFold {
  /**
   * @param {Element} fold   the cell's <details data-fold="answer">
   * @param {object} data    the cell's page data ({key, checks: [quiz keys]})
   * @param {object} page    the lesson page ({data: {lesson, quizzes}})
   */
  constructor(fold, data, page) {
    this.fold = fold;
    this.lesson = page.data.lesson;
    this.quizzes = page.data.quizzes;
    this.checks = data.checks;
    this.storageKey = key(this.lesson, "revealed", data.key);
    this.revealed = false;
    const { value } = read(this.storageKey, fitsReveal);
    if (value) this.open();
    // The learner opened the fold with its summary: that is asking to see it.
    fold.addEventListener("toggle", () => { if (fold.open && !this.revealed) this.reveal("shown"); });
    document.addEventListener("work-saved", (event) => {
      if (event.detail && event.detail.kind === "quiz" && this.checks.includes(event.detail.key)) this.answered();
    });
    // Revealed in another tab: opened here too, without a word. There is no version to keep or lose (a fold only
    // ever goes from closed to open, and this tab's "closed" is no work of the learner's), and the learner saw
    // the answer already, in the other tab.
    window.addEventListener("storage", (event) => {
      if ((event.key === this.storageKey || event.key === null) && !this.revealed
          && fitsReveal(load(this.storageKey))) this.open();
    });
  }

  /** Open the fold once every quiz the cell checks has a right answer saved; a wrong one leaves it closed. */
  answered() {
    const right = (id) => quizIsRight(this.quizzes.find((quiz) => quiz.key === id), load(key(this.lesson, "quiz", id)));
    if (this.checks.every(right)) this.reveal("answered");
  }

  /** Open the fold and save how it was revealed (the first way counts). */
  reveal(by) {
    if (!this.revealed) save(this.storageKey, { by });
    this.open();
  }

  open() {
    this.revealed = true;
    this.fold.open = true;
    this.fold.dataset.revealed = "true";
  }
}
