// The one controller of every explorable. The build drew each view once per distinct state and tagged each
// drawing with the combinations of discrete controls that show it (data-keys), so choices, radios, toggles
// and steppers only switch what is hidden: they work before Python loads, offline and from file://.
// An edited number asks the page's Python worker to draw the views again, with the same module.
import { find, findAll } from "./find.js";
import { parseNumber } from "./numbers.js";
import { sanitize } from "./sanitize.js";
import { Stopped } from "./runtime-client.js";
import { format } from "./strings.js";

const RECOMPUTE = "course.explorables.engine:recompute";

export class Explorable {
  constructor(element, data, page) {
    this.element = element;
    this.page = page;
    this.discrete = findAll(element, "[data-control][data-discrete]");
    this.continuous = findAll(element, "[data-control]:not([data-discrete])");
    this.views = findAll(element, "[data-view]");
    this.status = find(element, ".xp-status");
    this.asked = 0; // the number of the latest request to Python; older answers are dropped
    for (const control of this.discrete) this.wire(control);
    for (const control of this.continuous) {
      for (const input of control.querySelectorAll("input")) {
        input.addEventListener("change", () => {
          control.dataset.edited = "true";
          this.markLeader(control);
          this.update();
        });
      }
    }
    this.moveHighlights();
    element.dataset.key = this.key();
    element.dataset.ready = "true";
  }

  /** Listen to one discrete control; every kind ends in choose(control, index). */
  wire(control) {
    const kind = control.dataset.kind;
    if (kind === "choice") {
      for (const button of control.querySelectorAll("button")) {
        button.addEventListener("click", () => this.choose(control, Number(button.dataset.index)));
      }
    } else if (kind === "radio") {
      for (const radio of control.querySelectorAll("input")) {
        radio.addEventListener("change", () => this.choose(control, Number(radio.value)));
      }
    } else if (kind === "toggle") {
      control.querySelector("button").addEventListener("click", () => this.choose(control, 1 - index(control)));
    } else if (kind === "stepper") {
      const last = control.querySelectorAll(".xp-step").length - 1;
      const moves = { previous: (i) => Math.max(i - 1, 0), next: (i) => Math.min(i + 1, last), reset: () => 0 };
      moves.leap = (i, button) => Math.min(i + Number(button.dataset.leap), last);
      for (const button of control.querySelectorAll("[data-step]")) {
        button.addEventListener("click", () => this.choose(control, moves[button.dataset.step](index(control), button)));
      }
    }
  }

  /** Set a discrete control, show it, write back the presets that follow it, then redraw. */
  choose(control, position) {
    control.dataset.index = String(position);
    delete control.dataset.overridden; // its followers get its preset back
    showControl(control, position);
    for (const follower of this.continuous) {
      if (follower.dataset.follows === control.dataset.control) writePreset(follower, position);
    }
    this.update();
  }

  /**
   * A control that follows a discrete one was edited: the leader no longer says what the figure shows, so a preset
   * loses its highlight and a stepper its step's title ("updates done: 20" under a typed 60), until the learner
   * chooses again, or types the preset's own values back.
   */
  markLeader(follower) {
    const leader = this.discrete.find((control) => control.dataset.control === follower.dataset.follows);
    if (!leader || !follower.dataset.presets) return;
    const preset = JSON.parse(follower.dataset.presets)[index(leader)];
    const boxes = Array.from(follower.querySelectorAll("input"));
    const same = follower.dataset.kind === "matrix"
      ? boxes.every((box) => box.value.trim() === preset[Number(box.dataset.row)][Number(box.dataset.col)])
      : boxes[0].value.trim() === preset;
    if (same) delete follower.dataset.edited;
    if (same) delete leader.dataset.overridden;
    else leader.dataset.overridden = "true";
    showControl(leader, index(leader));
  }

  /** The combination shown now, written as the build tags it ("2-7"). */
  key() {
    return this.discrete.map(index).join("-");
  }

  update() {
    this.element.dataset.key = this.key();
    if (this.continuous.some((control) => control.dataset.edited === "true")) {
      this.recompute();
      return;
    }
    this.asked += 1; // an answer still on its way is no longer wanted
    this.say("");
    this.showPrecomputed();
  }

  showPrecomputed() {
    const key = this.key();
    for (const view of this.views) {
      for (const live of view.querySelectorAll(":scope > .xp-live")) live.remove();
      for (const variant of view.querySelectorAll(":scope > .xp-variant")) {
        variant.hidden = !variant.dataset.keys.split(" ").includes(key);
      }
    }
    this.moveHighlights();
    this.element.dataset.shown = "precomputed";
  }

  /**
   * Ask Python for the views of the edited state; the figure keeps what it shows until the answer. The request is
   * a job of the page's scheduler, as a cell is: queued behind what runs, and ended by Stop like any code.
   */
  async recompute() {
    const values = {};
    for (const control of this.discrete) values[control.dataset.control] = index(control);
    for (const control of this.continuous) {
      const value = this.read(control);
      if (value === null) return;
      values[control.dataset.control] = value;
    }
    if (location.protocol === "file:") {
      this.say(this.page.strings.file_protocol);
      return;
    }
    const asked = ++this.asked;
    await this.page.run([new Recomputation(this, values, asked)]);
  }

  /** The number (or grid of numbers) a continuous control holds, or null after saying which box is wrong. */
  read(control) {
    const boxes = Array.from(control.querySelectorAll("input"));
    const numbers = [];
    for (const box of boxes) {
      const number = parseNumber(box.value, this.page.strings.decimal_separator);
      box.setAttribute("aria-invalid", number === null ? "true" : "false");
      if (number === null) {
        this.say(format(this.page.strings.explorable_invalid, { text: box.value }));
        box.focus();
        return null;
      }
      numbers.push(number);
    }
    if (control.dataset.kind !== "matrix") return numbers[0];
    const rows = [];
    boxes.forEach((box, i) => {
      const row = Number(box.dataset.row);
      rows[row] = rows[row] || [];
      rows[row][Number(box.dataset.col)] = numbers[i];
    });
    return rows;
  }

  showLive(drawings) {
    this.views.forEach((view, i) => {
      for (const old of view.querySelectorAll(":scope > .xp-live")) old.remove();
      for (const variant of view.querySelectorAll(":scope > .xp-variant")) variant.hidden = true;
      const live = document.createElement("div");
      live.className = "xp-variant xp-live";
      live.append(sanitize(drawings[i]));
      for (const label of live.querySelectorAll("summary.figure-table-label")) {
        label.textContent = this.page.strings.table_alternative;
      }
      view.append(live);
    });
    this.moveHighlights();
    this.element.dataset.shown = "live";
  }

  /** Outline, in every heatmap that follows a control, the row that control has chosen. */
  moveHighlights() {
    for (const view of this.views) {
      const name = view.dataset.highlight;
      if (!name) continue;
      const row = index(this.discrete.find((control) => control.dataset.control === name));
      for (const highlight of view.querySelectorAll(".hm-highlight")) {
        const top = Number(highlight.closest("svg").querySelector(".hm-cell").getAttribute("y"));
        highlight.setAttribute("y", String(top + row * Number(highlight.getAttribute("height"))));
      }
    }
  }

  say(text) {
    if (this.status) this.status.textContent = text;
  }
}

function index(control) {
  return Number(control.dataset.index);
}

/** Make a discrete control show its new position (a radio already does). */
function showControl(control, position) {
  const kind = control.dataset.kind;
  const overridden = control.dataset.overridden === "true"; // a follower edited: no position of it is shown
  if (kind === "choice") {
    control.querySelectorAll("button").forEach((button, i) => button.setAttribute("aria-pressed",
      String(i === position && !overridden)));
  } else if (kind === "toggle") {
    control.querySelector("button").setAttribute("aria-pressed", String(position === 1));
  } else if (kind === "stepper") {
    const steps = control.querySelectorAll(".xp-step");
    steps.forEach((step, i) => { step.hidden = i !== position || overridden; });
    // aria-disabled, not disabled: the focused button keeps the focus when the walk reaches an end.
    control.querySelector("[data-step=previous]").setAttribute("aria-disabled", String(position === 0));
    control.querySelector("[data-step=reset]").setAttribute("aria-disabled", String(position === 0));
    for (const forward of control.querySelectorAll("[data-step=next], [data-step=leap]")) {
      forward.setAttribute("aria-disabled", String(position === steps.length - 1));
    }
  }
}

/** Write the preset of the followed option into a continuous control's boxes; it is no longer edited. */
function writePreset(control, position) {
  const preset = JSON.parse(control.dataset.presets)[position];
  const boxes = Array.from(control.querySelectorAll("input"));
  if (control.dataset.kind === "matrix") {
    for (const box of boxes) box.value = preset[Number(box.dataset.row)][Number(box.dataset.col)];
  } else {
    boxes[0].value = preset;
  }
  for (const box of boxes) box.removeAttribute("aria-invalid");
  delete control.dataset.edited;
}

/** One recomputation of an explorable as the scheduler runs it: its status and notes go to the figure's status line. */
class Recomputation {
  constructor(figure, values, asked) {
    this.figure = figure;
    this.element = figure.element;
    this.values = values;
    this.asked = asked;
  }

  /** Whether a later edit has asked again (then this answer is not shown). */
  get superseded() {
    return this.asked !== this.figure.asked;
  }

  setStatus(state) {
    const { strings } = this.figure.page;
    // Queued behind another job, it waits; queued with nothing running, it starts at once (Python may still load).
    const behind = Boolean(this.figure.page.scheduler && this.figure.page.scheduler.running);
    if (state === "queued" && !this.superseded) this.figure.say(behind ? strings.explorable_waiting : strings.explorable_computing);
    if (state === "running" && !this.superseded) this.figure.say(strings.explorable_computing);
  }

  async execute(client) {
    const { figure } = this;
    this.setStatus("running");
    figure.element.setAttribute("aria-busy", "true");
    let stopped = false;
    try {
      const answer = await client.call(RECOMPUTE, {
        module: figure.element.dataset.module, values: this.values, language: figure.page.language,
      });
      if (!this.superseded) {
        figure.showLive(answer.views);
        figure.say(figure.page.strings.explorable_computed);
      }
    } catch (error) {
      if (error instanceof Stopped) throw error;
      // Stop's interrupt reached the computation: the scheduler's note says so.
      // (Pyodide itself reports an interrupt that lands outside the course's handler, as text.)
      stopped = error.type === "KeyboardInterrupt" || /KeyboardInterrupt/.test(error.message);
      if (!this.superseded && !stopped) figure.say(format(figure.page.strings.explorable_failed, { reason: error.message }));
    } finally {
      if (!this.superseded) figure.element.removeAttribute("aria-busy");
    }
    return { ok: !stopped, stopped };
  }

  stopped() {
    this.figure.element.removeAttribute("aria-busy"); // the scheduler's note says what happened
  }

  note(text) {
    this.figure.say(text);
    return this.figure.status;
  }
}
