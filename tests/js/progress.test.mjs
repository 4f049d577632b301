// The progress line and bar of a training cell, from items of any shape (node --test).
import assert from "node:assert/strict";
import { test } from "node:test";

import { progressBar, progressText } from "../../site/page/progress.js";

const STRINGS = {
  decimal_separator: ",",
  progress_text: "Epoch {epoch}/{epochs} · step {step}/{steps} · loss {loss}",
  progress_accuracy: " · digits {digits} % · sequences {sequences} %",
  progress_stopped: " · stopped",
};

test("a full progress item fills every part of the line", () => {
  const item = { epoch: 1, epochs: 2, step: 3, steps: 8, loss: 0.25, digits: 90, sequences: 12.5, stopped: true };
  assert.equal(progressText(item, STRINGS), "Epoch 1/2 · step 3/8 · loss 0,25 · digits 90 % · sequences 12,5 % · stopped");
});

test("a part naming a field the item lacks is left out, never shown as a placeholder", () => {
  assert.equal(progressText({ step: 3, steps: 8 }, STRINGS), "step 3/8");
  assert.equal(progressText({ epoch: 1, loss: "nan", digits: 50 }, STRINGS), "loss nan · digits 50 %");
  assert.equal(progressText({}, STRINGS), "");
});

test("a bar has a position only for numeric steps; text, NaN or no steps make it a bar with no end", () => {
  assert.deepEqual(progressBar({ step: 3, steps: 8 }), { max: 8, value: 3 });
  assert.deepEqual(progressBar({ step: 12, steps: 8 }), { max: 8, value: 8 });
  for (const item of [{ step: 1, steps: "many" }, { step: "x", steps: 4 }, { step: 1, steps: NaN }, { step: 1, steps: 0 },
    { step: 1 }, {}]) {
    assert.equal(progressBar(item), null, JSON.stringify(item));
  }
});
