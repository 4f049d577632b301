// Start loading Python when the learner heads for a cell: points at it with a mouse or pen, focuses it, or
// presses it. Never on page load, and never on a scroll alone: a finger that touches a cell to scroll past it
// is not pointing at it (its pointerover is ignored), so a phone downloads nothing until a tap. The one
// exception: a runtime the service worker has already cached costs no download, so it starts when the page
// is idle (whenIdle), and the learner's first Run finds Python ready.

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

/** Call start() once the page has loaded and the browser is idle (a short timeout where it cannot say so). */
export function whenIdle(start) {
  const idle = () => ("requestIdleCallback" in self ? requestIdleCallback(() => start(), { timeout: 2000 }) : setTimeout(start, 200));
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}
