// A coding exercise: starter code in an editor, Check (graded in the worker), hints, attempts, solution.
import { CodeArea } from "./code-area.js";
import { find, findAll } from "./find.js";
import { fitsExercise } from "./fits.js";
import { savedNotice } from "./notice.js";
import { appendNote } from "./output.js";
import { OtherTab, mergeExerciseStates } from "./other-tab.js";
import { key, read, save } from "./storage.js";
import { format } from "./strings.js";

// The lesson's texts (prompt, hints, solution) and what the learner's code printed or wrote.

export class Exercise {
  constructor(element, data, page) {
    this.element = element;
    this.data = data;
    this.id = data.id;
    this.page = page;
    this.strings = page.strings;
    this.output = this.own(".cell-output");
    this.results = this.own(".check-results");
    this.status = this.own(".exercise-status");
    this.stateKey = key(page.data.lesson, "exercise", data.key);
    const { value: saved, setAside } = read(this.stateKey, (state) => this.fits(state));
    this.state = { attempts: 0, result: null, hints: 0, solutionShown: false, ...(saved || {}) };
    this.state.hints = Math.min(this.state.hints, data.hints); // hints removed from the lesson since
    this.unfolded();
    this.area = new CodeArea(this.own(".cell-code"), data.starter, {
      page, storageKey: key(page.data.lesson, "exercise-code", data.key), output: this.output,
      onRun: () => page.run([this]), below: this.own(".exercise-actions"),
    });
    if (setAside || this.area.setAside) savedNotice(element, this.strings.saved_set_aside);
    this.buttons = {};
    for (const button of findAll(element, "[data-action]")) this.buttons[button.dataset.action] = button;
    const actions = this.own(".exercise-actions");
    actions.hidden = false;
    const joins = document.createElement("p");
    joins.className = "exercise-namespace";
    joins.textContent = this.strings.exercise_joins;
    actions.after(joins);
    this.buttons.check.addEventListener("click", () => page.run([this]));
    this.buttons.hint.addEventListener("click", () => this.revealHint());
    this.buttons.solution.addEventListener("click", () => this.askSolution());
    this.buttons["confirm-solution"].addEventListener("click", () => this.showSolution());
    this.buttons["cancel-solution"].addEventListener("click", () => this.closeConfirm());
    this.buttons["reset-exercise"].addEventListener("click", () => this.startOver());
    this.area.addEventListener("change", () => { this.buttons["reset-exercise"].hidden = !this.area.edited(); });
    this.buttons["reset-exercise"].hidden = !this.area.edited();
    this.tabs = new OtherTab(this.stateKey, (text) => this.onOtherTab(text));
    this.render();
  }

  /**
   * Another tab checked this exercise, revealed a hint or the solution. Unlike code or an answer, this state is
   * no version the learner wrote, to keep or drop: it records what happened (checks run, hints and solution seen),
   * so this tab takes it quietly, merged with its own so that neither tab's counts go back (mergeExerciseStates).
   * The merge is saved only when it adds to what the other tab stored, so two tabs settle after one round.
   */
  onOtherTab(text) {
    let theirs;
    try {
      theirs = JSON.parse(text);
    } catch (error) {
      return;
    }
    if (!this.fits(theirs)) return;
    this.state = mergeExerciseStates(this.state, theirs);
    this.unfolded();
    const adds = ["attempts", "hints", "solutionShown"].some((name) => this.state[name] !== theirs[name]);
    if (adds) this.persist();
    this.render();
  }

  /**
   * What is open now, beside what was ever taken: `hintsShown` hints (of the `hints` taken, which the counts and the
   * learning platform keep) and the solution if `solutionOpen` (once `solutionShown`). A state saved before a
   * start-over could fold them has neither, and shows all it took.
   */
  unfolded() {
    const { state } = this;
    const shown = Number.isInteger(state.hintsShown) ? state.hintsShown : state.hints;
    state.hintsShown = Math.max(0, Math.min(shown, state.hints));
    state.solutionOpen = Boolean(state.solutionShown && (state.solutionOpen ?? true));
  }

  /**
   * Start over: the starter code again, and the hints and solution folded again, so that the learner tries once
   * more before reading them. What was taken stays counted (hints, solutionShown); a hint asked for now is the first
   * again.
   */
  startOver() {
    this.area.reset();
    this.state.hintsShown = 0;
    this.state.solutionOpen = false;
    this.own(".solution-confirm").hidden = true;
    this.persist();
    this.render();
  }

  /** This exercise's own element matching `selector` (never one inside its prompt, hints or output). */
  own(selector) {
    return find(this.element, selector);
  }

  /** The code a check last joined to the page's Python, in this visit or an earlier one; null if none. */
  joinedCode() {
    return typeof this.state.joined === "string" ? this.state.joined : null;
  }

  /** True for a saved state this exercise can show: counts, a result as a check writes it. */
  fits(state) {
    return fitsExercise(state);
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
    const code = this.area.code();
    const result = await client.check(code, this.data.checker);
    if (result.stopped) { // Stop pressed while the solution ran: no verdict, and no attempt counted
      this.page.showOutput(this.output, result.output);
      this.setStatus("");
      return { ok: false, stopped: true }; // the scheduler's note says so
    }
    this.state.attempts += 1;
    this.state.result = { passed: result.passed, results: result.results };
    this.persist();
    // A self-check list reads the saved result.
    this.element.dispatchEvent(new CustomEvent("work-saved", { bubbles: true, detail: { kind: "exercise", key: this.data.key } }));
    // Graded in a namespace of its own, the code then joins the page's (what it printed was shown once), so
    // that a cell can try the function; a restart replays it with the cells.
    const joined = !result.error && (await client.run(this.id, code, null)).ok;
    if (joined) { // kept, so that the page's next Python defines it again (after a reload, an import)
      this.state.joined = code;
      this.persist();
    }
    this.page.showOutput(this.output, result.output);
    this.setStatus(result.passed ? "done" : "failed");
    this.render();
    return { ok: result.passed, replay: joined ? code : null };
  }

  stopped() {
    this.setStatus("");
  }

  note(text, kind) {
    return appendNote(this.output, text, kind);
  }

  revealHint() {
    this.state.hintsShown = Math.min(this.state.hintsShown + 1, this.data.hints);
    this.state.hints = Math.max(this.state.hints, this.state.hintsShown);
    this.persist();
    this.render();
    const shown = this.hints().filter((item) => !item.hidden);
    if (shown.length) shown[shown.length - 1].focus();
  }

  askSolution() {
    if (this.state.attempts === 0) return;
    this.own(".solution-confirm").hidden = false;
    this.buttons["confirm-solution"].focus();
  }

  closeConfirm() {
    this.own(".solution-confirm").hidden = true;
    this.buttons.solution.focus();
  }

  showSolution() {
    this.state.solutionShown = true;
    this.state.solutionOpen = true;
    this.persist();
    this.own(".solution-confirm").hidden = true;
    this.render();
    this.own(".solution").focus();
  }

  /** The hints, one item each (a hint's own lists are not hints). */
  hints() {
    return Array.from(this.own(".hints").children);
  }

  persist() {
    save(this.stateKey, this.state);
  }

  render() {
    const { attempts, result, hintsShown: hints, solutionOpen } = this.state;
    this.own(".attempts").textContent = format(this.strings.attempts, { n: attempts });
    this.buttons.solution.disabled = attempts === 0;
    this.buttons.solution.title = attempts === 0 ? this.strings.solution_needs_attempt : "";
    this.hints().forEach((item, index) => { item.hidden = index >= hints; });
    this.buttons.hint.hidden = this.data.hints === 0 || hints >= this.data.hints;
    this.buttons.hint.textContent = format(this.strings.hint_button, { n: hints + 1, total: this.data.hints });
    this.own(".solution").hidden = !solutionOpen;
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
