// Start loading Python when the learner heads for a cell (points at it, focuses it, scrolls near it),
// not on page load.

/** Call start() once, the first time the learner shows intent towards one of `elements`. */
export function watchIntent(elements, selector, start) {
  const begin = () => {
    document.removeEventListener("pointerover", onPointer);
    document.removeEventListener("focusin", onPointer);
    window.removeEventListener("scroll", onScroll);
    start();
  };
  const onPointer = (event) => {
    if (event.target instanceof Element && event.target.closest(selector)) begin();
  };
  const onScroll = () => {
    const height = window.innerHeight;
    if (elements.some((element) => {
      const box = element.getBoundingClientRect();
      return box.top < height * 1.5 && box.bottom > -height * 0.5;
    })) begin();
  };
  document.addEventListener("pointerover", onPointer, { passive: true });
  document.addEventListener("focusin", onPointer);
  window.addEventListener("scroll", onScroll, { passive: true });
}
