// One quiz question, checked in the page (no Python needed); the answer and verdict are saved.
import { find, findAll } from "./find.js";
import { fitsQuiz } from "./fits.js";
import { savedNotice } from "./notice.js";
import { parseNumber } from "./numbers.js";
import { key, migrate, read, save } from "./storage.js";
import { format } from "./strings.js";

const CONTENT = "legend, .quiz-option > span, .quiz-explanation, .quiz-note"; // the lesson's texts
const INPUTS = ".quiz-inputs input";

export class Quiz {
  constructor(element, data, page) {
    this.element = element;
    this.data = data;
    this.page = page;
    this.strings = page.strings;
    this.stateKey = key(page.data.lesson, "quiz", data.key);
    this.feedback = find(element, ".quiz-feedback", CONTENT);
    this.verdict = find(element, ".quiz-verdict", CONTENT);
    this.explanation = find(element, ".quiz-explanation", CONTENT);
    find(element, ".quiz-actions", CONTENT).hidden = false;
    element.addEventListener("submit", (event) => {
      event.preventDefault();
      this.check();
    });
    find(element, "[data-action=retry]", CONTENT).addEventListener("click", () => this.retry());
    this.restore();
  }

  /** Bring back the saved answer if it fits this question; say so when one was carried over or set aside. */
  restore() {
    const fits = (saved) => this.fits(saved);
    const moved = migrate(key(this.page.data.lesson, "quiz", this.data.id), this.stateKey, fits);
    if (moved) savedNotice(this.element, this.strings[moved === "moved" ? "saved_migrated" : "saved_moved_aside"]);
    const { value: saved, setAside } = read(this.stateKey, fits);
    if (setAside) savedNotice(this.element, this.strings.saved_set_aside);
    if (!saved) return;
    this.fill(saved.answer);
    if (saved.checked) this.check();
  }

  /** True for a saved {answer, checked} whose answer this question can show: its kind, options in range. */
  fits(saved) {
    return fitsQuiz(this.data, saved);
  }

  inputs() {
    return findAll(this.element, INPUTS, CONTENT);
  }

  /** The learner's answer as data: an index, a list of indices, or the text typed. */
  answer() {
    const { kind } = this.data;
    if (kind === "numeric") return this.inputs()[0].value;
    const checked = this.inputs().filter((input) => input.checked).map((input) => input.value);
    if (kind === "multiple") return checked.map(Number);
    if (!checked.length) return null;
    return kind === "truefalse" ? checked[0] === "true" : Number(checked[0]);
  }

  fill(answer) {
    const { kind } = this.data;
    if (kind === "numeric") {
      this.inputs()[0].value = answer;
      return;
    }
    const values = kind === "multiple" ? answer.map(String) : [String(answer)];
    for (const input of this.inputs()) input.checked = values.includes(input.value);
  }

  /** Grade the answer: right, wrong, or (for a number we cannot read) an explanation of what to type. */
  grade(answer) {
    const { kind } = this.data;
    if (kind === "numeric") {
      if (String(answer).trim() === "") return { state: "empty", message: this.strings.quiz_choose };
      const value = parseNumber(answer, this.strings.decimal_separator);
      if (value === null) {
        return { state: "invalid", message: format(this.strings.quiz_number_invalid, { text: String(answer).trim() }) };
      }
      // The margin is inclusive; the small slack absorbs binary rounding (0.26 - 0.25 > 0.01 in floats).
      const slack = 1e-9 * Math.max(1, Math.abs(this.data.answer));
      return { state: Math.abs(value - this.data.answer) <= this.data.tolerance + slack ? "right" : "wrong" };
    }
    if (answer === null || (kind === "multiple" && answer.length === 0)) {
      return { state: "empty", message: this.strings.quiz_choose };
    }
    if (kind === "multiple") {
      const chosen = [...answer].sort().join(",");
      return { state: chosen === [...this.data.correct].sort().join(",") ? "right" : "wrong" };
    }
    if (kind === "truefalse") return { state: answer === this.data.answer ? "right" : "wrong" };
    return { state: this.data.correct.includes(answer) ? "right" : "wrong" };
  }

  check() {
    const answer = this.answer();
    const result = this.grade(answer);
    this.element.dataset.state = result.state;
    this.feedback.hidden = false;
    const graded = result.state === "right" || result.state === "wrong";
    this.verdict.textContent = graded
      ? (result.state === "right" ? this.strings.quiz_right : this.strings.quiz_wrong) : result.message;
    this.explanation.hidden = !graded;
    save(this.stateKey, { answer, checked: graded, state: result.state });
    this.announce();
  }

  /** Tell the page (a self-check list) that this question's saved answer changed. */
  announce() {
    this.element.dispatchEvent(new CustomEvent("work-saved", { bubbles: true, detail: { kind: "quiz", key: this.data.key } }));
  }

  retry() {
    this.element.dataset.state = "";
    this.feedback.hidden = true;
    this.explanation.hidden = true;
    for (const input of this.inputs()) {
      if (input.type === "text") input.value = "";
      else input.checked = false;
    }
    save(this.stateKey, { answer: this.answer(), checked: false });
    this.announce();
    this.inputs()[0].focus();
  }
}
