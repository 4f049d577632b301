// Learner work saved in the browser, one key scheme for the whole course: course:v1:<lesson>:<kind>:<id>.
// The lesson slug and the block id are URI-encoded, so any folder name the build accepts (accents, spaces,
// colons) round-trips; slugs of plain ASCII letters, digits, "-", "_" and "." keep the keys saved before.

const PREFIX = "course:v1:";
export const KINDS = ["cell", "quiz", "exercise", "exercise-code"];

export function key(lesson, kind, id) {
  return PREFIX + encodeURIComponent(lesson) + ":" + kind + ":" + encodeURIComponent(String(id));
}

/** {lesson, kind, id} of one of our keys in its canonical form; null for anything else. */
export function parseKey(name) {
  if (!name.startsWith(PREFIX)) return null;
  const parts = name.slice(PREFIX.length).split(":");
  if (parts.length !== 3 || !KINDS.includes(parts[1]) || !parts[0] || !parts[2]) return null;
  let lesson;
  let id;
  try {
    lesson = decodeURIComponent(parts[0]);
    id = decodeURIComponent(parts[2]);
  } catch (error) {
    return null; // a malformed %-escape
  }
  return key(lesson, parts[1], id) === name ? { lesson, kind: parts[1], id } : null;
}

export function load(name) {
  try {
    const text = window.localStorage.getItem(name);
    return text === null ? null : JSON.parse(text);
  } catch (error) {
    return null; // storage disabled or an unreadable entry: behave as if nothing was saved
  }
}

export function save(name, value) {
  try {
    window.localStorage.setItem(name, JSON.stringify(value));
    return true;
  } catch (error) {
    return false;
  }
}

export function remove(name) {
  try {
    window.localStorage.removeItem(name);
  } catch (error) {
    // nothing to undo
  }
}
