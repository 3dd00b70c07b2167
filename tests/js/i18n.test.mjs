// Counts in words (i18n.js tn): a count of one takes the catalog's singular `key.one`,
// in German and English alike, and every singular has its plural in both catalogs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { setCatalog, tn } from "../../src/ginrummy/web/js/i18n.js";
import { TEXTS, verdictText } from "../../src/ginrummy/web/js/fair/texts.js";

const catalog = (/** @type {string} */ lang) =>
  JSON.parse(
    readFileSync(
      new URL(`../../src/ginrummy/web/js/i18n/${lang}.json`, import.meta.url),
      "utf8",
    ),
  );
const CATALOGS = {
  de: catalog("de"),
  en: catalog("en"),
  "verify de": TEXTS.de,
  "verify en": TEXTS.en,
};

test("a count of one takes the singular, other counts the plural", () => {
  setCatalog("en", catalog("en"));
  assert.equal(tn("line.points", 1, { name: "Ann", n: 1 }), "Ann scores 1 point.");
  assert.equal(tn("line.points", 2, { name: "Ann", n: 2 }), "Ann scores 2 points.");
  assert.equal(tn("line.points", 0, { name: "Ann", n: 0 }), "Ann scores 0 points.");
  assert.equal(tn("table.watchers", 1, { n: 1 }), "1 watching");
  // A key without a singular is used for every count.
  assert.equal(tn("status.round_over", 1, { n: 1 }), "Round 1 is over.");
  setCatalog("de", catalog("de"));
  assert.equal(tn("line.points.you", 1, { n: 1 }), "Du erhältst 1 Punkt.");
  assert.equal(tn("timer.valuetext", 1, { s: 1 }), "1 Sekunde");
  assert.equal(tn("timer.valuetext", 5, { s: 5 }), "5 Sekunden");
});

test("every singular has its plural, and both languages have the same singulars", () => {
  for (const [name, messages] of Object.entries(CATALOGS)) {
    for (const key of Object.keys(messages).filter(
      (k) => k.endsWith(".one") && !k.startsWith("review.seat."),
    )) {
      assert.ok(
        typeof messages[key.slice(0, -4)] === "string",
        `${name}: ${key} without its plural`,
      );
    }
  }
  const singulars = (/** @type {Record<string, unknown>} */ m) =>
    Object.keys(m)
      .filter((k) => k.endsWith(".one"))
      .sort();
  assert.deepEqual(singulars(CATALOGS.de), singulars(CATALOGS.en));
  assert.deepEqual(singulars(CATALOGS["verify de"]), singulars(CATALOGS["verify en"]));
});

test("the verify page says one deal in the singular", () => {
  setCatalog("en", TEXTS.en);
  assert.equal(verdictText(0, 1), "The deal is fair.");
  assert.equal(verdictText(0, 3), "All 3 deals are fair.");
  assert.equal(verdictText(1, 1), "The deal fails the check.");
  assert.equal(verdictText(1, 3), "1 of 3 deals fails the check.");
  assert.equal(verdictText(2, 3), "2 of 3 deals fail the check.");
  setCatalog("de", TEXTS.de);
  assert.equal(verdictText(0, 1), "Die Austeilung ist fair.");
  assert.equal(verdictText(0, 2), "Alle 2 Austeilungen sind fair.");
  assert.equal(verdictText(1, 2), "1 von 2 Austeilungen besteht die Prüfung nicht.");
});
