// One quiz question, checked in the page (no Python needed); the answer and verdict are saved.
import { parseNumber } from "./numbers.js";
import { key, load, save } from "./storage.js";
import { format } from "./strings.js";

export class Quiz {
  constructor(element, data, page) {
    this.element = element;
    this.data = data;
    this.page = page;
    this.strings = page.strings;
    this.stateKey = key(page.data.lesson, "quiz", data.id);
    this.feedback = element.querySelector(".quiz-feedback");
    this.verdict = element.querySelector(".quiz-verdict");
    this.explanation = element.querySelector(".quiz-explanation");
    element.querySelector(".quiz-actions").hidden = false;
    element.addEventListener("submit", (event) => {
      event.preventDefault();
      this.check();
    });
    element.querySelector("[data-action=retry]").addEventListener("click", () => this.retry());
    const saved = load(this.stateKey);
    if (saved && saved.answer !== undefined) {
      this.fill(saved.answer);
      if (saved.checked) this.check();
    }
  }

  /** The learner's answer as data: an index, a list of indices, or the text typed. */
  answer() {
    const { kind } = this.data;
    if (kind === "numeric") return this.element.querySelector("input[type=text]").value;
    const checked = Array.from(this.element.querySelectorAll("input:checked")).map((input) => input.value);
    if (kind === "multiple") return checked.map(Number);
    if (!checked.length) return null;
    return kind === "truefalse" ? checked[0] === "true" : Number(checked[0]);
  }

  fill(answer) {
    const { kind } = this.data;
    if (kind === "numeric") {
      this.element.querySelector("input[type=text]").value = answer;
      return;
    }
    const values = kind === "multiple" ? answer.map(String) : [String(answer)];
    for (const input of this.element.querySelectorAll("input")) input.checked = values.includes(input.value);
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
  }

  retry() {
    this.element.dataset.state = "";
    this.feedback.hidden = true;
    this.explanation.hidden = true;
    for (const input of this.element.querySelectorAll("input")) {
      if (input.type === "text") input.value = "";
      else input.checked = false;
    }
    save(this.stateKey, { answer: this.answer(), checked: false });
    this.element.querySelector("input").focus();
  }
}
