// The review page's pure parts: the steps of a review, the stepper's bounds, the
// progress, the graph's geometry, the page's path and the choice words.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { setCatalog } from "../../src/ginrummy/web/js/i18n.js";
import { cardName } from "../../src/ginrummy/web/js/cards.js";
import {
  steps,
  clampStep,
  percent,
  seriesGeometry,
  choiceText,
  graphLabel,
} from "../../src/ginrummy/web/js/review.js";
import { reviewPath, parseReviewPath } from "../../src/ginrummy/web/js/routes.js";
import { DE, EN } from "./catalogs.mjs";

setCatalog("en", EN);

/** @param {number} number @param {number} count @param {boolean} ended */
function round(number, count, ended) {
  const decisions = Array.from({ length: count }, (_, i) => ({
    index: i,
    turn: i + 1,
    grade: "good",
  }));
  const end = ended
    ? {
        result: "knock",
        winner: "one",
        points: 10,
        hands: { one: [], two: [] },
        scores: { one: 10, two: 0 },
      }
    : null;
  return {
    number,
    decisions,
    series: decisions.map((d) => ({ index: d.index, turn: d.turn, value: d.index - 1 })),
    end,
  };
}

test("every decision of every round, then the round's end when it was played out", () => {
  const review = { rounds: [round(1, 3, true), round(2, 2, false)] };
  const kinds = steps(/** @type {any} */ (review)).map(
    (s) => `${s.round.number}:${s.kind}`,
  );
  assert.deepEqual(kinds, [
    "1:decision",
    "1:decision",
    "1:decision",
    "1:end",
    "2:decision",
    "2:decision",
  ]);
  assert.deepEqual(steps(null), []);
});

test("the stepper stays within the review", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 300 }),
      fc.integer({ min: -5, max: 305 }),
      fc.integer({ min: -3, max: 3 }),
      (count, step, delta) => {
        const next = clampStep(Math.max(0, Math.min(count - 1, step)), delta, count);
        assert.ok(next >= 0 && next < count);
      },
    ),
  );
  assert.equal(clampStep(0, -1, 5), 0);
  assert.equal(clampStep(4, 1, 5), 4);
  assert.equal(clampStep(2, 1, 5), 3);
});

test("progress in per cent, 0 while the total is unknown", () => {
  assert.equal(percent(0, 0), 0);
  assert.equal(percent(5, 20), 25);
  assert.equal(percent(21, 20), 100);
});

test("the graph leaves out forced decisions and keeps every point inside the chart", () => {
  const series = [
    { index: 0, turn: 1, value: -25 },
    { index: 1, turn: 1, value: null },
    { index: 2, turn: 2, value: 7.5 },
  ];
  const g = seriesGeometry(series, { width: 600, height: 160, pad: 20 });
  assert.deepEqual(
    g.points.map((p) => p.position),
    [0, 2],
  );
  assert.equal(g.top, 30);
  assert.equal(g.zero, 80);
  assert.ok(g.points[0].y > g.zero && g.points[1].y < g.zero); // losses below, gains above
  fc.assert(
    fc.property(
      fc.array(fc.option(fc.double({ min: -200, max: 200, noNaN: true })), {
        maxLength: 60,
      }),
      (values) => {
        const geo = seriesGeometry(
          values.map((value, index) => ({ index, turn: index, value })),
        );
        for (const p of geo.points) {
          assert.ok(p.x >= geo.pad && p.x <= geo.width - geo.pad);
          assert.ok(p.y >= geo.pad - 1e-9 && p.y <= geo.height - geo.pad + 1e-9);
        }
      },
    ),
  );
});

test("the page's path round-trips and names only seats one and two", () => {
  assert.equal(reviewPath("r_ab/c", "two"), "/r/r_ab%2Fc/review/two");
  assert.deepEqual(parseReviewPath(reviewPath("r_ab/c", "two")), {
    room: "r_ab/c",
    seat: "two",
  });
  assert.equal(parseReviewPath("/r/abc/review/three"), null);
  assert.equal(parseReviewPath("/r/abc"), null);
});

test("choices and the graph's text alternative in words", () => {
  assert.equal(choiceText("draw stock"), "draw from the stock");
  assert.equal(choiceText("discard 7h"), `discard ${cardName("7h")}`);
  assert.match(choiceText("knock Qs"), /^knock with /);
  assert.equal(choiceText(null), "–");
  assert.match(
    graphLabel(/** @type {any} */ (round(3, 3, true))),
    /round 3 after each of 3 decisions: first -1, last 1, lowest -1, highest 1/,
  );
});

test("German and English name the same review texts", () => {
  const keys = (/** @type {Record<string, string>} */ c) =>
    Object.keys(c)
      .filter((k) => k.startsWith("review.") || k.startsWith("stats.list"))
      .sort();
  assert.deepEqual(keys(DE), keys(EN));
});
