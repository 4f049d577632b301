// Plural forms of the UI strings in the page's language (node --test).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { countForm, listForm } from "../../site/page/plural.js";
import { format } from "../../site/page/strings.js";

const catalogue = (language) => JSON.parse(readFileSync(new URL(`../../site/i18n/${language}.json`, import.meta.url)));

function counted(language, key, n) {
  return format(countForm(catalogue(language), key, n, language), { n });
}

test("a count of saved items agrees with its number in English and Spanish", () => {
  assert.match(counted("en", "saved_strays", 1), /^1 saved item belongs to a block /);
  assert.match(counted("en", "saved_strays", 2), /^2 saved items belong to blocks /);
  assert.match(counted("es", "saved_taken_back", 1), /^1 elemento guardado que se había apartado vuelve /);
  assert.match(counted("es", "saved_taken_back", 3), /^3 elementos guardados /);
});

test("Ukrainian counts take their three forms: 1 and 21, 2 to 4 and 22, 5 to 20", () => {
  for (const n of [1, 21]) assert.match(counted("uk", "saved_strays", n), new RegExp(`^${n} збережений елемент належить`));
  for (const n of [2, 4, 22]) assert.match(counted("uk", "saved_strays", n), new RegExp(`^${n} збережені елементи належать`));
  for (const n of [5, 11, 20]) assert.match(counted("uk", "saved_strays", n), new RegExp(`^${n} збережених елементів належать`));
});

test("a list of one cell is said in the singular, of more in the plural, whatever the count's plural rule", () => {
  for (const language of ["en", "es", "uk"]) {
    const strings = catalogue(language);
    for (const key of ["restarting", "restarted", "replayed", "replay_raised", "replay_failed"]) {
      assert.notEqual(listForm(strings, key, 1), listForm(strings, key, 2), `${language} ${key}`);
      assert.equal(listForm(strings, key, 21), strings[key], `${language} ${key}: 21 cells are many`);
    }
  }
  assert.equal(format(listForm(catalogue("en"), "replayed", 1), { cells: "1" }),
    "Cell 1 was run again, so its variables are back.");
});
