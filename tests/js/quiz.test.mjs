// A quiz's grading without a page (node --test): what a numeric question says when it cannot read the answer.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { Quiz } from "../../site/page/quiz.js";

const strings = (language) => JSON.parse(readFileSync(new URL(`../../site/i18n/${language}.json`, import.meta.url)));

/** grade() of a numeric question with `answer` and `tolerance`, in `language`, without building its form. */
function grade(text, answer, language, tolerance = 0.01) {
  const quiz = Object.create(Quiz.prototype);
  quiz.data = { kind: "numeric", answer, tolerance };
  quiz.strings = strings(language);
  return quiz.grade(text);
}

test("a fraction refused for a decimal answer gets decimal examples in the page's notation", () => {
  const en = grade("1/4", 0.25, "en");
  assert.equal(en.state, "invalid");
  assert.match(en.message, /“1\/4”.*decimal point.*0\.75 or 12\.5\./);
  assert.match(grade("1/4", 0.25, "es").message, /«1\/4».*coma decimal.*0,75 o 12,5\./);
  assert.match(grade("1/4", 0.25, "uk").message, /«1\/4».*десятковою комою.*0,75 або 12,5\./);
});

test("a refused answer never shows the key as an example", () => {
  const message = grade("3/4", 0.75, "en").message;
  assert.doesNotMatch(message, /0\.75/);
  assert.match(message, /12\.5 or 3\.25\./);
});

test("a whole answer keeps its whole-number examples", () => {
  for (const language of ["en", "es", "uk"]) {
    const { state, message } = grade("1/4", 196, language, 0);
    assert.equal(state, "invalid");
    assert.equal(message, strings(language).quiz_number_invalid.replace("{text}", "1/4"));
  }
});
