// Learner work saved in the browser, one key scheme for the whole course: course:v1:<lesson>:<kind>:<id>.

const PREFIX = "course:v1:";

export function key(lesson, kind, id) {
  return PREFIX + lesson + ":" + kind + ":" + id;
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
