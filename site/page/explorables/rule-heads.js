// The rule-heads explorable: map buttons (aria-pressed), a row radio group (arrow keys), a live panel.
// Every number is in the page already (the build wrote all states), so it works before Python loads.

export class RuleHeads {
  constructor(element) {
    this.element = element;
    this.buttons = Array.from(element.querySelectorAll(".map-button"));
    this.maps = Array.from(element.querySelectorAll(".explorable-map"));
    this.panels = Array.from(element.querySelectorAll(".panel-row"));
    for (const button of this.buttons) {
      button.addEventListener("click", () => this.showMap(Number(button.dataset.map)));
    }
    for (const radio of element.querySelectorAll(".explorable-rows input")) {
      radio.addEventListener("change", () => this.showRow(Number(radio.value)));
    }
    const checked = element.querySelector(".explorable-rows input:checked");
    element.dataset.row = checked ? checked.value : "0";
    element.dataset.map = "0";
    element.dataset.ready = "true";
  }

  showMap(index) {
    this.buttons.forEach((button, m) => button.setAttribute("aria-pressed", m === index ? "true" : "false"));
    this.maps.forEach((map, m) => { map.hidden = m !== index; });
    this.element.dataset.map = String(index);
  }

  showRow(row) {
    this.panels.forEach((panel) => { panel.hidden = Number(panel.dataset.row) !== row; });
    for (const highlight of this.element.querySelectorAll(".hm-highlight")) {
      const top = Number(highlight.closest("svg").querySelector(".hm-cell").getAttribute("y"));
      const height = Number(highlight.getAttribute("height"));
      highlight.setAttribute("y", String(top + row * height));
    }
    this.element.dataset.row = String(row);
  }
}
