// The index's view of the learner's progress: per lesson, how many of its quizzes are answered right and its
// challenges passed, and the lesson they opened last. It reads the work saved in this browser through the same
// checks the lesson's self-check uses (fits.js), so a count here is what the lesson page itself would show.
import { exerciseIsPassed, fitsVisit, quizIsRight } from "./fits.js";
import { VISIT, key, load, savedAt } from "./storage.js";
import { format } from "./strings.js";

/**
 * {quizzes: [right, total], challenges: [passed, total], opened} for the lesson page `page`, from the index's
 * `blocks` ({quiz: [keys], exercise: [ids]}) and `shapes` ({quiz: {key: {kind, options}}}) of that page.
 */
export function pageProgress(page, blocks, shapes, storage) {
  const quizzes = (blocks.quiz || []).map((id) => quizIsRight(shapes.quiz[id], load(key(page, "quiz", id), storage),
    { earned: true })); // as the self-check counts: right once stays right through a retry
  const challenges = (blocks.exercise || []).map((id) => exerciseIsPassed(load(key(page, "exercise", id), storage)));
  const count = (results) => [results.filter(Boolean).length, results.length];
  return { quizzes: count(quizzes), challenges: count(challenges), opened: openedAt(page, storage) !== null };
}

/** When the learner last opened the lesson page `page`, in ms, or null. */
export function openedAt(page, storage) {
  const visit = load(key(page, "visit", VISIT), storage);
  const at = fitsVisit(visit) ? savedAt(visit) : -Infinity;
  return at === -Infinity ? null : at;
}

/** The page of `pages` the learner opened last, or null when they opened none. */
export function lastOpened(pages, storage) {
  let last = null;
  let latest = -Infinity;
  for (const page of pages) {
    const at = openedAt(page, storage);
    if (at !== null && at > latest) [last, latest] = [page, at];
  }
  return last;
}

/** One page's progress in words: its counts, or that it was opened or not yet. */
export function describeProgress(progress, strings) {
  const parts = [];
  const [right, quizzes] = progress.quizzes;
  const [passed, challenges] = progress.challenges;
  if (quizzes) parts.push(format(strings.progress_quizzes, { right, total: quizzes }));
  if (challenges) parts.push(format(strings.progress_challenges, { passed, total: challenges }));
  if (!progress.opened && right + passed === 0) return strings.progress_untouched;
  if (right + passed === 0 && !parts.length) return strings.progress_opened;
  return parts.join(" · ");
}

/**
 * Fill each lesson card's progress line of the index (`data`: the index's page data) and the line that says
 * where the learner left off. A card tells the edition it links to, then any other edition the learner worked in.
 */
export function showProgress(root, data, storage) {
  const { blocks, shapes, strings } = data;
  for (const card of root.querySelectorAll(".lesson-card[data-lesson]")) {
    const line = card.querySelector(".lesson-progress");
    const editions = data.editions[card.dataset.lesson] || [];
    const shown = card.dataset.page;
    const progress = (page) => pageProgress(page, blocks[page] || {}, shapes[page] || { quiz: {} }, storage);
    const parts = [describeProgress(progress(shown), strings)];
    for (const edition of editions) {
      if (edition.key === shown || openedAt(edition.key, storage) === null) continue;
      parts.push(format(strings.progress_other_edition, {
        language: edition.languageName || edition.language, progress: describeProgress(progress(edition.key), strings),
      }));
    }
    line.textContent = parts.join(" — ");
    line.hidden = false;
  }
  const resume = root.querySelector(".lesson-resume");
  for (const card of root.querySelectorAll(".lesson-card[data-resume]")) delete card.dataset.resume; // shown again
  const last = lastOpened(data.lessons, storage);
  if (!resume || last === null) return;
  const cards = [...root.querySelectorAll(".lesson-card[data-lesson]")]; // in the course's order
  const card = cards.find((each) => (data.editions[each.dataset.lesson] || []).some((edition) => edition.key === last));
  if (!card) return;
  card.dataset.resume = "true";
  const link = document.createElement("a");
  link.href = data.hrefs[last];
  link.textContent = data.titles[last];
  resume.replaceChildren(format(strings.resume, { n: cards.indexOf(card) + 1 }) + " ", link);
  resume.hidden = false;
}
