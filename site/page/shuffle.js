// The order a choice quiz shows its options in, drawn per learner so that an answer cannot be guessed by its
// place: a deterministic shuffle seeded from the quiz's key and a seed made once per browser and lesson, saved
// with the learner's work (course:v1:<lesson>:seed:order), so that the order is the same on every reload, after an
// export and import, and in a learning platform's record (scorm.js carries the seed). Answers are saved by option
// id, never by place, so the order may change without a saved answer changing its meaning.
import { fitsSeed } from "./fits.js";
import { SEED, key, load, localStore, save } from "./storage.js";

/** A 32-bit hash of `text` (FNV-1a, then a final mix), the same in every browser. */
export function hash(text) {
  let h = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    h ^= text.charCodeAt(index);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** A generator of numbers in [0, 1) from a 32-bit state (mulberry32): small, fast, and the same everywhere. */
function generator(state) {
  let s = state >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The option ids `ids` in the order drawn for the quiz `quizKey` and the learner's `seed`: a Fisher–Yates
 * shuffle. The ids are sorted first, so the order depends on which options there are, not on their order in the
 * source: a course update that only reorders a quiz's options shows this learner the same order as before.
 */
export function shuffled(ids, quizKey, seed) {
  const order = [...ids].sort();
  const random = generator(hash(String(seed) + "\n" + String(quizKey)));
  for (let index = order.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [order[index], order[other]] = [order[other], order[index]];
  }
  return order;
}

/** A new seed: 8 random base-36 digits (from the browser's crypto where it has one). */
export function newSeed() {
  const values = new Uint32Array(2);
  if (globalThis.crypto && globalThis.crypto.getRandomValues) globalThis.crypto.getRandomValues(values);
  else values.forEach((_, index) => { values[index] = Math.floor(Math.random() * 2 ** 32); });
  return (values[0].toString(36) + values[1].toString(36)).padStart(8, "0").slice(-8);
}

const made = new Map(); // lesson → seed, for a browser that refuses to keep it (the page's life long, then)

/**
 * The learner's seed for `lesson`: the saved one, or one made now and saved (so the order it draws is kept).
 * A saved entry that is not a seed is left where it is (the page sweeps it aside) and a fresh seed replaces it.
 */
export function lessonSeed(lesson, storage = localStore()) {
  const name = key(lesson, "seed", SEED);
  const saved = load(name, storage);
  if (fitsSeed(saved)) return saved.seed;
  if (made.has(lesson)) return made.get(lesson);
  const seed = newSeed();
  if (!save(name, { seed }, storage)) made.set(lesson, seed);
  return seed;
}
