// The round's calculation as a short table (results.js calcCells): each line of both
// languages' catalogues parts into a label and its figure, or stays whole when it has none.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { setCatalog, t } from "../../src/ginrummy/web/js/i18n.js";
import { calcCells } from "../../src/ginrummy/web/js/results.js";

const catalog = (lang) =>
  JSON.parse(
    readFileSync(
      new URL(`../../src/ginrummy/web/js/i18n/${lang}.json`, import.meta.url),
      "utf8",
    ),
  );

test("a line with a figure parts at its last colon", () => {
  assert.deepEqual(calcCells("Gin bonus: +25"), ["Gin bonus", "+25"]);
  assert.deepEqual(calcCells("Difference: 31 − 9 = 22"), ["Difference", "31 − 9 = 22"]);
  assert.deepEqual(calcCells("Deadwood of A: B (knocked): 9"), [
    "Deadwood of A: B (knocked)",
    "9",
  ]);
});

test("a line without a figure stays whole", () => {
  assert.deepEqual(calcCells("You score 22 points."), ["You score 22 points.", null]);
});

for (const lang of ["en", "de"]) {
  test(`every figure line of ${lang} ends in its figure`, () => {
    setCatalog(lang, catalog(lang));
    const values = { name: "Ann", n: 17, a: 31, b: 9 };
    for (const key of [
      "line.knocker_deadwood",
      "line.defender_deadwood",
      "line.defender_deadwood_gin",
      "line.knocker_deadwood.you",
      "line.defender_deadwood.you",
      "line.defender_deadwood_gin.you",
      "line.difference",
      "line.gin_bonus",
      "line.big_gin_bonus",
      "line.undercut_bonus",
      "line.doubling",
    ]) {
      const [label, figure] = calcCells(t(key, values));
      assert.ok(
        figure !== null && /\d/.test(figure) && !/\d/.test(label.replace("Ann", "")),
        `${lang} ${key}: ${label} | ${figure}`,
      );
    }
  });
}
