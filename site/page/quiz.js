// One quiz question, checked in the page (no Python needed); the answer and verdict are saved.
import { find, findAll } from "./find.js";
import { answerByIds, fitsQuiz, optionIds } from "./fits.js";
import { savedNotice } from "./notice.js";
import { parseNumber, thousandsReading } from "./numbers.js";
import { OtherTab } from "./other-tab.js";
import { lessonSeed, shuffled } from "./shuffle.js";
import { key, migrate, read, resave, save } from "./storage.js";
import { format } from "./strings.js";

const INPUTS = ".quiz-inputs input";
// What a number the page cannot read is told to look like when the answer is not whole (none has three decimals,
// which could read as grouped thousands); an example the answer is near is never shown.
const DECIMAL_EXAMPLES = [0.75, 12.5, 3.25];

export class Quiz {
  constructor(element, data, page) {
    this.element = element;
    this.data = data;
    this.page = page;
    this.strings = page.strings;
    this.stateKey = key(page.data.lesson, "quiz", data.key);
    this.feedback = find(element, ".quiz-feedback");
    this.verdict = find(element, ".quiz-verdict");
    this.hint = find(element, ".quiz-hint");
    this.explain = find(element, ".quiz-explain");
    this.explanation = find(element, ".quiz-explanation");
    this.earned = false; // answered right once: a self-check keeps its tick through a retry
    find(element, "[data-action=explain]").addEventListener("click", () => this.showExplanation());
    find(element, ".quiz-actions").hidden = false;
    element.addEventListener("submit", (event) => {
      event.preventDefault();
      this.check();
    });
    find(element, "[data-action=retry]").addEventListener("click", () => this.retry());
    this.tabs = new OtherTab(this.stateKey, (text) => this.onOtherTab(text));
    this.arrange();
    this.restore();
  }

  /**
   * Show a choice quiz's options in the order drawn for this learner (shuffle.js), the same on every reload. A
   * true/false quiz keeps True, then False: two fixed labels in a fixed order tell nothing of the key, and a learner
   * who finds "False" first on one question and second on the next would only misread; its balance of keys is the
   * author's to keep, which the build reports.
   */
  arrange() {
    if (!["single", "multiple"].includes(this.data.kind)) return;
    const container = find(this.element, ".quiz-inputs");
    const labels = new Map(this.inputs().map((input) => [input.value, input.closest("label")]));
    const order = shuffled(optionIds(this.data), this.data.key, lessonSeed(this.page.data.lesson));
    for (const id of order) if (labels.has(id)) container.appendChild(labels.get(id));
  }

  /** Bring back the saved answer if it fits this question; say so when one was carried over or set aside. */
  restore() {
    const fits = (saved) => this.fits(saved);
    const moved = migrate(key(this.page.data.lesson, "quiz", this.data.id), this.stateKey, fits);
    if (moved) savedNotice(this.element, this.strings[moved === "moved" ? "saved_migrated" : "saved_moved_aside"]);
    const { value: saved, setAside } = read(this.stateKey, fits);
    if (setAside) savedNotice(this.element, this.strings.saved_set_aside);
    this.tabs.wrote(); // what storage holds now (carried over, taken back) is this tab's own: its re-check saves it
    if (!saved) return;
    const byIds = answerByIds(this.data, saved.answer);
    if (JSON.stringify(byIds) !== JSON.stringify(saved.answer)) {
      // Saved by position before options had ids: mapped by this build's source order and saved by id, once.
      resave(this.stateKey, { ...saved, answer: byIds }); // the same work: it keeps the time it was saved
      this.tabs.wrote(); // this tab's own write: its next save must not take it for another tab's answer
    }
    this.earned = saved.earned === true;
    this.fill(saved.answer);
    if (saved.checked) this.check();
  }

  /** True for a saved {answer, checked} whose answer this question can show: its kind, options in range. */
  fits(saved) {
    return fitsQuiz(this.data, saved);
  }

  inputs() {
    return findAll(this.element, INPUTS);
  }

  /** The learner's answer as data: an option id, a list of ids (in source order), true/false, or the text typed. */
  answer() {
    const { kind } = this.data;
    if (kind === "numeric") return this.inputs()[0].value;
    const checked = this.inputs().filter((input) => input.checked).map((input) => input.value);
    if (kind === "multiple") return optionIds(this.data).filter((id) => checked.includes(id));
    if (!checked.length) return null;
    return kind === "truefalse" ? checked[0] === "true" : checked[0];
  }

  fill(answer) {
    const { kind } = this.data;
    if (kind === "numeric") {
      this.inputs()[0].value = answer;
      return;
    }
    const byIds = answerByIds(this.data, answer);
    const values = kind === "multiple" ? byIds.map(String) : [String(byIds)];
    for (const input of this.inputs()) input.checked = values.includes(input.value);
  }

  /** Grade the answer: right, wrong, or (for a number we cannot read) an explanation of what to type. */
  grade(answer) {
    const { kind } = this.data;
    if (kind === "numeric") {
      if (String(answer).trim() === "") return { state: "empty", message: this.strings.quiz_choose };
      const value = parseNumber(answer, this.strings.decimal_separator);
      if (value === null) {
        return { state: "invalid", message: this.unreadable(String(answer).trim()) };
      }
      if (this.near(value)) return { state: "right" };
      // "262,144" in Spanish: a decimal by the language's rule, but the learner may have grouped thousands.
      const whole = thousandsReading(answer, this.strings.decimal_separator);
      if (whole !== null) {
        const text = String(answer).trim();
        return { state: "ambiguous", message: format(this.strings.quiz_number_ambiguous, { text, decimal: text, whole }) };
      }
      return { state: "wrong" };
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

  /** Why `text` is refused, with examples of the answer's form: whole numbers, or decimals in the page's notation. */
  unreadable(text) {
    if (Number.isInteger(this.data.answer)) return format(this.strings.quiz_number_invalid, { text });
    const [first, second] = DECIMAL_EXAMPLES.filter((example) => !this.near(example))
      .map((example) => String(example).replace(".", this.strings.decimal_separator));
    return format(this.strings.quiz_number_invalid_decimal, { text, first, second });
  }

  /** Whether `value` is within the margin; the small slack absorbs binary rounding (0.26 - 0.25 > 0.01 in floats). */
  near(value) {
    const slack = 1e-9 * Math.max(1, Math.abs(this.data.answer));
    return Math.abs(value - this.data.answer) <= this.data.tolerance + slack;
  }

  /** For a wrong multiple selection: how many options are ticked when they should not be, or the reverse. */
  wrongMarks(answer) {
    const marked = new Set(answer);
    let wrong = 0;
    const ids = optionIds(this.data);
    for (const option of ids) {
      if (marked.has(option) !== this.data.correct.includes(option)) wrong += 1;
    }
    return format(this.strings.quiz_wrong_marks, { n: wrong, total: ids.length });
  }

  check() {
    const result = this.showVerdict();
    const graded = result.state === "right" || result.state === "wrong";
    this.write({ answer: this.answer(), checked: graded, state: result.state, earned: this.earned });
  }

  /** Grade the answer shown and show the verdict (the hint, the explanation), without saving it. */
  showVerdict() {
    const answer = this.answer();
    const result = this.grade(answer);
    this.element.dataset.state = result.state;
    this.feedback.hidden = false;
    const wrong = result.state === "wrong";
    if (result.state === "right") this.earned = true;
    this.verdict.textContent = this.verdictText(result, answer);
    // A wrong answer gets the hint first, so that a retry has something left to work out.
    this.hint.hidden = !wrong || !this.hint.childElementCount;
    this.explain.hidden = !wrong;
    this.explanation.hidden = result.state !== "right";
    return result;
  }

  /** Save `state` as this question's answer, setting aside first an answer another tab saved unseen. */
  write(state) {
    this.tabs.beforeWrite();
    save(this.stateKey, state);
    this.tabs.wrote();
    this.announce();
  }

  /** "Right.", "Not quite." (with how many options are marked wrongly), or why the answer could not be graded. */
  verdictText(result, answer) {
    if (result.state === "right") return this.strings.quiz_right;
    if (result.state !== "wrong") return result.message;
    return this.data.kind === "multiple" ? this.strings.quiz_wrong + " " + this.wrongMarks(answer) : this.strings.quiz_wrong;
  }

  /** The whole explanation, on the learner's request after a wrong answer. */
  showExplanation() {
    this.explain.hidden = true;
    this.explanation.hidden = false;
  }

  /** Tell the page (a self-check list) that this question's saved answer changed. */
  announce() {
    this.element.dispatchEvent(new CustomEvent("work-saved", { bubbles: true, detail: { kind: "quiz", key: this.data.key } }));
  }

  retry() {
    this.clear();
    this.write({ answer: this.answer(), checked: false, earned: this.earned });
    this.inputs()[0].focus();
  }

  /** No answer and no verdict shown, as before a first try. */
  clear() {
    this.element.dataset.state = "";
    this.feedback.hidden = true;
    this.explanation.hidden = true;
    for (const input of this.inputs()) {
      if (input.type === "text") input.value = "";
      else input.checked = false;
    }
  }

  /** What this tab shows, as it would save it: the answer, and whether it was checked. */
  shown() {
    const state = this.element.dataset.state;
    return { answer: this.answer(), checked: state === "right" || state === "wrong", earned: this.earned };
  }

  /**
   * Another tab saved an answer to this question (or took one back to retry): if it differs from what this tab
   * shows, say so under the question and offer to take that answer or keep this tab's; the one not kept is set
   * aside. A right answer either tab gave stays earned (a self-check keeps its tick, as through a retry).
   */
  onOtherTab(text) {
    const theirs = this.answerOf(text);
    if (theirs === null) {
      this.tabs.known = text;
      return;
    }
    if (theirs.earned === true) this.earned = true;
    const mine = this.shown();
    if (JSON.stringify(answerByIds(this.data, theirs.answer)) === JSON.stringify(mine.answer) && Boolean(theirs.checked) === mine.checked) {
      this.tabs.agreed(text);
      return;
    }
    const { other_tab_quiz: message, other_tab_quiz_take: take, other_tab_quiz_keep: keep } = this.strings;
    this.tabs.ask(find(this.element, ".quiz-actions"), { message, take, keep }, {
      take: () => this.takeOtherTab(),
      keep: () => this.write({ ...this.shown(), state: this.element.dataset.state || undefined }),
    });
  }

  /** The saved answer in an entry's text if it fits this question; null for none (or one that does not fit). */
  answerOf(text) {
    try {
      const value = JSON.parse(text);
      return this.fits(value) ? value : null;
    } catch (error) {
      return null;
    }
  }

  /** Show the answer the other tab saved (checked if it was); this tab's answer is set aside first, if it had one. */
  takeOtherTab() {
    const text = this.tabs.stored();
    const theirs = this.answerOf(text);
    if (theirs === null) return;
    const mine = this.shown();
    if (this.grade(mine.answer).state !== "empty") this.tabs.setAside(JSON.stringify(mine));
    this.tabs.known = text;
    this.clear();
    this.fill(theirs.answer);
    if (theirs.checked) this.showVerdict();
    this.announce();
  }
}
