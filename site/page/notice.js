// What the page tells a learner about their saved work (set aside, carried over) and about a block that could
// not start: one line on the block itself, outside its output, so a run does not wipe it.

/** Add (or replace) the one-line notice of `element`; returns it. */
export function savedNotice(element, text) {
  let note = Array.from(element.children).find((child) => child.classList.contains("saved-notice"));
  if (!note) {
    note = document.createElement("p");
    note.className = "saved-notice";
    note.setAttribute("role", "note");
    element.append(note);
  }
  note.textContent = note.textContent ? note.textContent + " " + text : text;
  return note;
}

/** A one-line notice about the whole page's saved work, right under the lesson's title. */
export function pageNotice(article, text) {
  const note = document.createElement("p");
  note.className = "saved-notice saved-notice-page";
  note.setAttribute("role", "note");
  note.textContent = text;
  article.querySelector(":scope > h1").after(note);
  return note;
}

/**
 * The one notice that the browser refused to keep the learner's work, under the lesson's title, with a button
 * that exports everything (what storage holds and what only this page's memory does). Shown once per page.
 */
export function unsavedNotice(article, strings, exportWork) {
  const shown = article.querySelector(":scope > .saved-notice-unsaved");
  if (shown) return shown;
  const note = pageNotice(article, strings.unsaved + " ");
  note.classList.add("saved-notice-unsaved");
  note.setAttribute("role", "alert");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button";
  button.dataset.action = "export-unsaved";
  button.textContent = strings.unsaved_export;
  button.addEventListener("click", exportWork);
  note.append(button);
  return note;
}
