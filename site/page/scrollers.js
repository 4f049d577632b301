// A region that scrolls sideways must be reachable from the keyboard to be scrolled: each printed output or
// display formula that overflows gets a tab stop while it does, and only then (no tab stop for the others).
const SCROLLERS = ".cell-output pre.out, .math.block";
const MARK = "scroller"; // data-scroller on the regions this module made focusable

/** Give every region under `root` that overflows sideways a tab stop, and take it back from those that fit. */
export function markScrollers(root = document) {
  for (const element of root.querySelectorAll(SCROLLERS)) {
    const overflows = element.scrollWidth > element.clientWidth + 1;
    if (overflows === (MARK in element.dataset)) continue;
    if (overflows) {
      element.tabIndex = 0;
      element.dataset[MARK] = "";
    } else {
      element.removeAttribute("tabindex");
      delete element.dataset[MARK];
    }
  }
}

/** Mark the page's scrollers now, after every run (new output) and whenever the window's width changes. */
export function watchScrollers() {
  markScrollers();
  document.addEventListener("run-finished", () => markScrollers());
  let pending = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => markScrollers());
  });
}
