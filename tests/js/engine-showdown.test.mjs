// showdown.js: the rule book's examples (docs/rules.md §7) scored exactly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseCards } from "../../src/ginrummy/web/js/engine/cards.js";
import {
  HandSizeError,
  NotAKnockError,
} from "../../src/ginrummy/web/js/engine/errors.js";
import { Rules } from "../../src/ginrummy/web/js/engine/rules.js";
import { settle } from "../../src/ginrummy/web/js/engine/showdown.js";

const STANDARD = Rules.preset();
const score = (k, d, rules = STANDARD, options = {}) =>
  settle(parseCards(k), parseCards(d), rules, options);

test("7.1: undercut, knock 7 against 5 after layoffs scores 27", () => {
  const s = score("2c 3c 4c 5d 5h 5s 9h Th Jh 7s", "6d 7d 8d Kc Kd Kh 8h Qh Ad 4s");
  assert.equal(s.kind, "undercut");
  assert.deepEqual([s.knockerDeadwood, s.defenderDeadwood, s.winner], [7, 5, "defender"]);
  assert.deepEqual([s.basePoints, s.bonus, s.multiplier, s.points], [2, 25, 1, 27]);
  assert.deepEqual(s.layoffs.map((lo) => lo.card.text).sort(), ["8h", "Qh"]);
  assert.deepEqual(s.defenderDeadwoodCards.map(String), ["Ad", "4s"]);
});

test("7.2: William Hill, the knocker scores 36", () => {
  const s = score("4c 4d 4h 7s 8s 9s Ac As 6c 2d", "Kc Qd Jh 7c Ad Ah 2c 2h 3d 6s");
  assert.deepEqual(
    [s.kind, s.knockerDeadwood, s.defenderDeadwood, s.points],
    ["knock", 10, 46, 36],
  );
  assert.deepEqual(
    s.layoffs.map((lo) => [lo.card.text, lo.onto.text]),
    [["6s", "7s 8s 9s"]],
  );
});

test("7.3: a layoff chain at both ends of a run", () => {
  const s = score("2h 3h 4h Tc Td Ts Jc Jd Js 2c", "Ah 5h 6h 9c 9d Kh Qs 8c 7d 3s");
  assert.deepEqual(
    s.layoffs.map((lo) => lo.card.text),
    ["5h", "6h", "Ah"],
  );
  assert.equal(s.defenderDeadwood, 9 + 9 + 10 + 10 + 8 + 7 + 3);
  assert.deepEqual([s.kind, s.points], ["knock", 54]);
});

test("7.5: the defender may not take a card out of a knocker meld", () => {
  const s = score("Qc Qd Qh Qs 2c 3c 4c 5c As 2s", "Kd Jd 5s 9s 3h 3s 3d Kc 8s 9c");
  assert.deepEqual(s.layoffs, []);
  assert.deepEqual([s.knockerDeadwood, s.defenderDeadwood, s.points], [3, 61, 58]);
});

test("a tie is an undercut; gin has no layoffs; a fourth card goes on a set", () => {
  const tie = score("2c 3c 4c 5d 6d 7d 8h 9h Th 4s", "Kc Kd Kh Qc Qd Qh Js Jd Jc 4h");
  assert.deepEqual([tie.kind, tie.winner, tie.points], ["undercut", "defender", 25]);
  const gin = score("2h 3h 4h Tc Td Ts Jc Jd Js Jh", "Ah 5h Kc 9d 8s 7c 6d 5s 4d 3s");
  assert.deepEqual(
    [gin.kind, gin.layoffs.length, gin.defenderDeadwood, gin.points],
    ["gin", 0, 58, 83],
  );
  const four = score("9c 9d 9h 2c 3c 4c Kd Kh Ks As", "9s Qd Jh 8s 7h 6h 2d 3d 5s Tc");
  assert.deepEqual(
    four.layoffs.map((lo) => [lo.card.text, lo.onto.text]),
    [["9s", "9c 9d 9h"]],
  );
  assert.deepEqual(
    [four.knockerDeadwood, four.defenderDeadwood, four.points],
    [1, 61, 60],
  );
});

test("doubling, Big Gin and the limits", () => {
  const doubled = score(
    "2h 3h 4h Tc Td Ts Jc Jd Js Jh",
    "Ah 5h Kc 9d 8s 7c 6d 5s 4d 3s",
    STANDARD,
    { doubled: true },
  );
  assert.equal(doubled.points, 166);
  const big = Rules.preset("standard", { big_gin_bonus: 31 });
  const s = score(
    "2c 3c 4c 5c 6d 7d 8d Th Td Ts Tc",
    "Kh Qh Js 9h 9s 8c 2h 3h 4h As",
    big,
  );
  assert.deepEqual([s.kind, s.points], ["big_gin", 57 + 31]);
  assert.throws(
    () => score("2c 3c 4c 5c 6d 7d 8d Th Td Ts Tc", "Kh Qh Js 9h 9s 8c 2h 3h 4h As"),
    HandSizeError,
  );
  assert.throws(
    () => score("4c 4d 4h 7s 8s 9s Ac As 6c Kd", "Kc Qd Jh 7c Ad Ah 2c 2h 3d 6s"),
    (e) => e instanceof NotAKnockError && /above the knock limit 10/.test(e.message),
  );
  assert.throws(
    () =>
      score("4c 4d 4h 7s 8s 9s Ac As 6c 2d", "Kc Qd Jh 7c Ad Ah 2c 2h 3d 6s", STANDARD, {
        knockLimit: 0,
      }),
    /\(gin only\)/,
  );
  assert.throws(
    () => score("4c 4d 4h 7s 8s 9s Ac As 6c 2d", "Kc Qd"),
    /the defender must hold 10 cards, got 2/,
  );
});
