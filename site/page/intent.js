// Start loading Python when the learner heads for a cell: points at it with a mouse or pen, focuses it, or
// presses it. Never on page load, and never on a scroll alone: a finger that touches a cell to scroll past it
// is not pointing at it (its pointerover is ignored), so a phone downloads nothing until a tap.

/** Call start() once, the first time the learner shows intent towards an element matching `selector`. */
export function watchIntent(selector, start) {
  const events = ["pointerover", "focusin", "click"];
  const begin = () => {
    for (const type of events) document.removeEventListener(type, onIntent);
    start();
  };
  const onIntent = (event) => {
    if (event.type === "pointerover" && event.pointerType === "touch") return;
    if (event.target instanceof Element && event.target.closest(selector)) begin();
  };
  for (const type of events) document.addEventListener(type, onIntent, { passive: true });
}
