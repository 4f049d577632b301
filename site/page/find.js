// The page controller's own elements: the build's markup of a block, never an element that lesson content or
// cell output put inside it (an output may hold a <div class="out-stale">, a hint a nested list, a page may
// carry a stray element with a block's id or with id="page-data"). The build marks every container of lesson
// content or output with one attribute, data-content; a container itself is the controller's, its inside is not.
export const CONTENT = "[data-content]";

/** The elements under `root` that match `selector` and sit inside no content container. */
export function findAll(root, selector, content = CONTENT) {
  return Array.from(root.querySelectorAll(selector)).filter((element) => {
    for (let node = element.parentElement; node && node !== root; node = node.parentElement) {
      if (node.matches(content)) return false;
    }
    return true;
  });
}

/** The first of findAll, or null. */
export function find(root, selector, content = CONTENT) {
  return findAll(root, selector, content)[0] || null;
}
