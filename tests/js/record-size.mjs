// The compact record (suspend_data) of a lesson with all its work done, for tests/test_scorm.py: reads
// {data: the page data, solutions: {challenge key: code}} on stdin, prints {length, left, verdicts} as JSON.
// Every quiz answered right, every challenge passed on its second check with every hint taken, each check's
// messages as long as a checker writes them, and each challenge's code edited into its solution.
import { suspendData } from "../../site/page/scorm.js";
import { SEED, key } from "../../site/page/storage.js";
import { MemoryStorage } from "./memory-storage.mjs";

const { data, solutions } = JSON.parse(await new Promise((done) => {
  let text = "";
  process.stdin.on("data", (chunk) => { text += chunk; }).on("end", () => done(text));
}));
const at = "2026-12-07T05:00:00.000Z";
const rightAnswer = (quiz) => {
  if (quiz.kind === "numeric") return String(quiz.answer).replace(".", data.strings.decimal_separator);
  if (quiz.kind === "truefalse") return quiz.answer;
  return quiz.kind === "multiple" ? quiz.correct : quiz.correct[0];
};
const storage = new MemoryStorage();
const set = (kind, id, value) => storage.setItem(key(data.lesson, kind, id), JSON.stringify({ ...value, at }));
set("seed", SEED, { seed: "k3x9q2m7" }); // the order of the options travels too (8 characters, as shuffle.js makes)
for (const quiz of data.quizzes) set("quiz", quiz.key, { answer: rightAnswer(quiz), checked: true, state: "right", earned: true });
const message = { ok: true, message: "x".repeat(90) };
for (const exercise of data.exercises) {
  set("exercise", exercise.key, { attempts: 2, hints: exercise.hints, solutionShown: false,
    result: { passed: true, results: [message, message, message, message] } });
}
const verdicts = suspendData(data.lesson, storage).text.length;
for (const exercise of data.exercises) {
  set("exercise-code", exercise.key, { code: solutions[exercise.key], original: exercise.starter });
}
const { text, left } = suspendData(data.lesson, storage);
console.log(JSON.stringify({ length: text.length, left, verdicts, record: JSON.parse(text) }));
