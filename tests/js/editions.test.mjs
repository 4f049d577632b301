// The index's choice of edition for the reader's languages (node --test).
import assert from "node:assert/strict";
import { test } from "node:test";

import { preferredEdition } from "../../site/page/editions.js";

const EDITIONS = [
  { language: "es", href: "01-una/index.html", title: "Una" },
  { language: "en", href: "01-una/en/index.html", title: "One" },
];

test("the first of the reader's languages that the lesson has wins, whatever its region", () => {
  assert.equal(preferredEdition(EDITIONS, ["es-MX", "en"]).href, "01-una/index.html");
  assert.equal(preferredEdition(EDITIONS, ["uk", "EN-gb", "es"]).href, "01-una/en/index.html");
});

test("a reader whose languages the lesson lacks gets no choice, so the index keeps its own", () => {
  assert.equal(preferredEdition(EDITIONS, ["de", "fr"]), null);
  assert.equal(preferredEdition(EDITIONS, []), null);
});
