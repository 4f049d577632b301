// The page controller's own elements: the build's markup of a block, never an element that lesson content or
// cell output put inside it (an output may hold a <div class="out-stale">, a hint a nested list, a page may
// carry a stray element with a block's id or with id="page-data").

/** The elements under `root` that match `selector` and sit inside none of the `content` containers. */
export function findAll(root, selector, content) {
  return Array.from(root.querySelectorAll(selector)).filter((element) => {
    for (let node = element.parentElement; node && node !== root; node = node.parentElement) {
      if (node.matches(content)) return false;
    }
    return true;
  });
}

/** The first of findAll, or null. */
export function find(root, selector, content) {
  return findAll(root, selector, content)[0] || null;
}
