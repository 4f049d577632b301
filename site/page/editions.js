// The index opens each lesson in the reader's own language, where the lesson has an edition in it.

/**
 * The first edition, of `editions` ([{language, href, title, summary}]), in one of `languages` (the browser's
 * preferences in order, such as ["es-MX", "en"]); null when the lesson has none of them.
 */
export function preferredEdition(editions, languages) {
  for (const wanted of languages) {
    const base = String(wanted).toLowerCase().split("-")[0];
    const found = editions.find((edition) => edition.language === base);
    if (found) return found;
  }
  return null;
}

/** Point each lesson card of the index at its edition in the reader's language: its title, summary and link. */
export function showPreferredEditions(root, editionsByLesson, languages) {
  for (const card of root.querySelectorAll(".lesson-card[data-lesson]")) {
    const edition = preferredEdition(editionsByLesson[card.dataset.lesson] || [], languages);
    if (!edition) continue;
    const link = card.querySelector("a.lesson-title");
    card.querySelector(".lesson-text").lang = edition.language;
    link.href = edition.href;
    card.dataset.page = edition.key; // the page whose progress the card tells (course-progress.js)
    link.textContent = edition.title;
    card.querySelector(".lesson-summary").textContent = edition.summary;
  }
}
