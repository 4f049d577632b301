// What saved work each kind of block can show. The lesson page reads its work through these, and the index
// checks an imported receipt with the same ones, from the block shapes the build writes into the index.
import { isRecord } from "./storage.js";

/** True when `value` is missing or passes `test`: a saved state may predate a field. */
const optional = (value, test) => value === undefined || test(value);

/** True for a saved edit: {code: text, original: text (the lesson's code it was edited from)}. */
export function fitsCode(saved) {
  return isRecord(saved) && typeof saved.code === "string"
    && (saved.original === undefined || typeof saved.original === "string");
}

/**
 * The option ids of a choice quiz `block`, in source order ({options: [ids]}; an older page's count gives none).
 */
export function optionIds(block) {
  return Array.isArray(block.options) ? block.options : [];
}

/**
 * A saved choice answer by option id: an answer saved before options had ids named positions (0, [0, 2]) in the
 * source order, which the current build's order maps to ids (a position out of range stays as it is, and does not
 * fit). Other answers are returned as they are.
 */
export function answerByIds(block, answer) {
  const ids = optionIds(block);
  const one = (value) => (Number.isInteger(value) && value >= 0 && value < ids.length ? ids[value] : value);
  if (block.kind === "single") return one(answer);
  if (block.kind === "multiple" && Array.isArray(answer)) return answer.map(one);
  return answer;
}

/** True for a saved {seed} (shuffle.js): the per-learner seed the order of a lesson's options is drawn from. */
export function fitsSeed(saved) {
  return isRecord(saved) && typeof saved.seed === "string" && /^[0-9a-z]{1,32}$/.test(saved.seed);
}

/**
 * True for a saved {answer, checked} that the quiz `block` ({kind, options: [ids]}) can show: its kind, and option
 * ids it has, or positions in range (an answer saved before ids, which answerByIds maps).
 */
export function fitsQuiz(block, saved) {
  const flag = (value) => ["boolean", "undefined"].includes(typeof value); // `earned`: right once (a retry keeps it)
  if (!isRecord(saved) || !("answer" in saved) || !flag(saved.checked) || !flag(saved.earned)) return false;
  const answer = answerByIds(block, saved.answer);
  const option = (value) => typeof value === "string" && optionIds(block).includes(value);
  switch (block.kind) {
    case "numeric": return typeof answer === "string";
    case "truefalse": return answer === null || typeof answer === "boolean";
    case "single": return answer === null || option(answer);
    case "multiple": return Array.isArray(answer) && answer.every(option);
    default: return false;
  }
}

/**
 * True when `saved` is a state the quiz `block` can show and it is right: checked right now or, when `earned`
 * counts, right before a retry took the answer back. The self-check and the answer-first folds read quizzes' work
 * through this, so what they count is what the quiz itself would show.
 */
export function quizIsRight(block, saved, { earned = false } = {}) {
  if (!block || !fitsQuiz(block, saved)) return false;
  return (saved.checked === true && saved.state === "right") || (earned && saved.earned === true);
}

/** True when `saved` is an exercise state the exercise can show and its last check passed. */
export function exerciseIsPassed(saved) {
  return fitsExercise(saved) && isRecord(saved.result) && saved.result.passed === true;
}

/** True for a check's result as an exercise saves it: {passed, results: [{ok, message}]}. */
function fitsResult(result) {
  const fitsItem = (item) => isRecord(item) && typeof item.ok === "boolean" && typeof item.message === "string";
  return result === null || (isRecord(result) && typeof result.passed === "boolean" && Array.isArray(result.results)
    && result.results.every(fitsItem));
}

/**
 * True for a saved exercise state: counts, a result as a check writes it, the code the last check joined to the
 * page's Python (`joined`), and what is open now (`hintsShown`, `solutionOpen`: a start-over folds them again). A
 * hint count past the hints the exercise has now fits (the page shows them all): a hint removed from the lesson
 * loses no other state.
 */
export function fitsExercise(saved) {
  const count = (value) => Number.isInteger(value) && value >= 0;
  return isRecord(saved) && optional(saved.attempts, count) && optional(saved.hints, count)
    && optional(saved.solutionShown, (shown) => typeof shown === "boolean") && optional(saved.result, fitsResult)
    && optional(saved.joined, (code) => typeof code === "string")
    && optional(saved.hintsShown, count) && optional(saved.solutionOpen, (open) => typeof open === "boolean");
}

const WAYS = ["answered", "run", "shown"]; // how an answer-first output was revealed (answer-fold.js)

/** True for a saved reveal: {by: "answered" | "run" | "shown"}. */
export function fitsReveal(saved) {
  return isRecord(saved) && WAYS.includes(saved.by);
}

/** True for a saved visit of a lesson page: {opened: true, at}. */
export function fitsVisit(saved) {
  return isRecord(saved) && saved.opened === true;
}
