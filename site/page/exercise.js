// A coding exercise: starter code in an editor, Check (graded in the worker), hints, attempts, solution.
import { CodeArea } from "./code-area.js";
import { appendNote } from "./output.js";
import { key, load, save } from "./storage.js";
import { format } from "./strings.js";

export class Exercise {
  constructor(element, data, page) {
    this.element = element;
    this.data = data;
    this.id = data.id;
    this.page = page;
    this.strings = page.strings;
    this.output = element.querySelector(".cell-output");
    this.results = element.querySelector(".check-results");
    this.status = element.querySelector(".exercise-status");
    this.stateKey = key(page.data.lesson, "exercise", this.id);
    this.state = { attempts: 0, result: null, hints: 0, solutionShown: false, ...(load(this.stateKey) || {}) };
    this.area = new CodeArea(element.querySelector(".cell-code"), data.starter, {
      page, storageKey: key(page.data.lesson, "exercise-code", this.id), output: this.output,
      onRun: () => page.run([this]),
    });
    this.buttons = {};
    for (const button of element.querySelectorAll("[data-action]")) this.buttons[button.dataset.action] = button;
    element.querySelector(".exercise-actions").hidden = false;
    this.buttons.check.addEventListener("click", () => page.run([this]));
    this.buttons.hint.addEventListener("click", () => this.revealHint());
    this.buttons.solution.addEventListener("click", () => this.askSolution());
    this.buttons["confirm-solution"].addEventListener("click", () => this.showSolution());
    this.buttons["cancel-solution"].addEventListener("click", () => this.closeConfirm());
    this.buttons["reset-exercise"].addEventListener("click", () => this.area.reset());
    this.area.addEventListener("change", () => { this.buttons["reset-exercise"].hidden = !this.area.edited(); });
    this.buttons["reset-exercise"].hidden = !this.area.edited();
    this.render();
  }

  flush() {
    this.area.flush();
  }

  setStatus(state) {
    this.element.dataset.state = state || "";
    this.status.textContent = state === "running" ? this.strings.checking
      : state === "queued" ? this.strings.queued : "";
  }

  async execute(client) {
    this.setStatus("running");
    this.output.replaceChildren();
    this.results.replaceChildren();
    const result = await client.check(this.area.code(), this.data.checker);
    if (result.stopped) { // Stop pressed while the solution ran: no verdict, and no attempt counted
      this.page.showOutput(this.output, result.output);
      this.setStatus("");
      return { ok: false };
    }
    this.state.attempts += 1;
    this.state.result = { passed: result.passed, results: result.results };
    this.persist();
    this.page.showOutput(this.output, result.output);
    this.setStatus(result.passed ? "done" : "failed");
    this.render();
    return { ok: result.passed }; // a check runs in its own namespace: nothing to replay
  }

  stopped() {
    this.setStatus("");
  }

  note(text, kind) {
    return appendNote(this.output, text, kind);
  }

  revealHint() {
    this.state.hints = Math.min(this.state.hints + 1, this.data.hints);
    this.persist();
    this.render();
    const shown = this.element.querySelectorAll(".hints li:not([hidden])");
    if (shown.length) shown[shown.length - 1].focus();
  }

  askSolution() {
    if (this.state.attempts === 0) return;
    this.element.querySelector(".solution-confirm").hidden = false;
    this.buttons["confirm-solution"].focus();
  }

  closeConfirm() {
    this.element.querySelector(".solution-confirm").hidden = true;
    this.buttons.solution.focus();
  }

  showSolution() {
    this.state.solutionShown = true;
    this.persist();
    this.element.querySelector(".solution-confirm").hidden = true;
    this.render();
    this.element.querySelector(".solution").focus();
  }

  persist() {
    save(this.stateKey, this.state);
  }

  render() {
    const { attempts, result, hints, solutionShown } = this.state;
    this.element.querySelector(".attempts").textContent = format(this.strings.attempts, { n: attempts });
    this.buttons.solution.disabled = attempts === 0;
    this.buttons.solution.title = attempts === 0 ? this.strings.solution_needs_attempt : "";
    this.element.querySelectorAll(".hints li").forEach((item, index) => { item.hidden = index >= hints; });
    this.buttons.hint.hidden = this.data.hints === 0 || hints >= this.data.hints;
    this.buttons.hint.textContent = format(this.strings.hint_button, { n: hints + 1, total: this.data.hints });
    this.element.querySelector(".solution").hidden = !solutionShown;
    this.element.dataset.result = result ? (result.passed ? "passed" : "failed") : "";
    this.results.replaceChildren();
    if (result) {
      const verdict = document.createElement("li");
      verdict.className = "check-verdict";
      verdict.textContent = result.passed ? this.strings.exercise_passed : this.strings.exercise_failed;
      this.results.append(verdict);
      for (const item of result.results) {
        const line = document.createElement("li");
        line.className = item.ok ? "check-ok" : "check-fail";
        line.textContent = (item.ok ? "✓ " : "✗ ") + item.message;
        this.results.append(line);
      }
    }
  }
}
