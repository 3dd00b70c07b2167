// round.js: the phases, legal actions and apply, in scenarios with explicit decks
// (the dealer is seat one throughout, so seat two acts first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseAction } from "../../src/ginrummy/web/js/engine/actions.js";
import {
  IllegalActionError,
  RecordError,
} from "../../src/ginrummy/web/js/engine/errors.js";
import {
  Phase,
  handOf,
  isLegal,
  legalActions,
  newRound,
} from "../../src/ginrummy/web/js/engine/round.js";
import { Rules } from "../../src/ginrummy/web/js/engine/rules.js";
import { acts, deckOf, play, texts } from "./engine-helpers.mjs";

const ONE = 0,
  TWO = 1;
const STANDARD = Rules.preset();
const PLAIN = deckOf(
  "Ac 2d 3h 4s 5c 6d 7h 8s 9c Td",
  "Jc Qd Kh As 2c 3d 4h 5s 6c 7d",
  "8h",
  "9s",
);
const KNOCKY = "2c 3c 4c 5d 6d 7d 9h Th Jh Qs";
const DEALER = "Kc Kd Ks Tc Td Ts Js Jd Jc 5h";

test("the deal follows the deck convention", () => {
  const s = newRound(STANDARD, PLAIN, ONE);
  assert.deepEqual(texts(handOf(s, TWO)), [
    "Ac",
    "5c",
    "9c",
    "2d",
    "6d",
    "Td",
    "3h",
    "7h",
    "4s",
    "8s",
  ]);
  assert.deepEqual(
    [s.firstUpcard.text, s.stock[0].text, s.stock.length],
    ["8h", "9s", 31],
  );
  assert.deepEqual([s.phase, s.turn, s.knockLimit], [Phase.FIRST_UPCARD, TWO, 10]);
  assert.ok(Object.isFrozen(s));
  assert.throws(() => newRound(STANDARD, PLAIN.slice(1), ONE), RecordError);
});

test("first upcard: non-dealer, dealer, then the non-dealer must draw the stock", () => {
  let s = newRound(STANDARD, PLAIN, ONE);
  assert.deepEqual(acts(s), ["take", "pass"]);
  s = play(s, "pass", "pass");
  assert.deepEqual([s.phase, s.turn, acts(s)], [Phase.DRAW, TWO, ["draw stock"]]);
  assert.throws(() => play(s, "draw discard"), /non-dealer must draw from the stock/);
  s = play(s, "draw stock", "discard 9s");
  assert.deepEqual([s.turn, acts(s)], [ONE, ["draw stock", "draw discard"]]);
});

test("a card just taken may not be discarded; errors name action, phase and reason", () => {
  const s = play(newRound(STANDARD, PLAIN, ONE), "take");
  assert.ok(!acts(s).includes("discard 8h"));
  assert.throws(
    () => play(s, "discard 8h"),
    (e) =>
      e instanceof IllegalActionError &&
      e.message ===
        "discard 8h is not legal in phase discard: 8h was just taken from the discard pile and may not be discarded now",
  );
  const fresh = newRound(STANDARD, PLAIN, ONE);
  assert.throws(
    () => play(fresh, "draw stock"),
    (e) =>
      e.phase === "first_upcard" &&
      e.reason ===
        "the first upcard may only be taken or passed (take, pass), not draw stock",
  );
  assert.equal(fresh.history.length, 0);
});

test("the knock limit is counted after the discard; a knock settles the round", () => {
  const s = play(
    newRound(STANDARD, deckOf(KNOCKY, DEALER, "8s", "2s"), ONE),
    "pass",
    "pass",
    "draw stock",
  );
  assert.ok(
    acts(s).includes("knock Qs") &&
      acts(s).includes("knock 2s") &&
      !acts(s).includes("knock 9h"),
  );
  assert.throws(
    () => play(s, "knock 9h"),
    /deadwood after discarding 9h would be 32, above the knock limit 10/,
  );
  const end = play(s, "knock 2s");
  assert.equal(end.phase, Phase.OVER);
  assert.equal(end.knockDiscard.text, "2s");
  const r = end.result;
  assert.deepEqual([r.kind, r.knocker, r.winner, r.points], ["undercut", TWO, ONE, 30]);
  assert.deepEqual(acts(end), []);
  assert.throws(() => play(end, "pass"), /the round is over/);
});

test("gin and knock are different actions", () => {
  const s = play(
    newRound(STANDARD, deckOf(KNOCKY, DEALER, "8s", "Qh"), ONE),
    "pass",
    "pass",
    "draw stock",
  );
  assert.ok(acts(s).includes("gin Qs") && !acts(s).includes("knock Qs"));
  assert.throws(() => play(s, "knock Qs"), /that is gin, not a knock/);
  const r = play(s, "gin Qs").result;
  assert.deepEqual(
    [r.kind, r.winner, r.points, r.showdown.layoffs.length],
    ["gin", TWO, 30, 0],
  );
});

test("Oklahoma: the upcard sets the knock limit and a spade doubles", () => {
  const rules = Rules.preset("oklahoma");
  assert.equal(newRound(rules, deckOf(KNOCKY, DEALER, "4h", "2s"), ONE).knockLimit, 4);
  assert.equal(newRound(rules, deckOf(KNOCKY, DEALER, "Ah", "2s"), ONE).knockLimit, 0);
  const spade = newRound(rules, deckOf(KNOCKY, DEALER, "8s", "Qh"), ONE);
  assert.deepEqual([spade.knockLimit, spade.doubled], [8, true]);
  assert.equal(play(spade, "pass", "pass", "draw stock", "gin Qs").result.points, 60);
});

test("the 11-card deal opens with a discard; Big Gin needs the option", () => {
  const rules = Rules.preset("standard", { eleven_card_deal: true });
  const s = newRound(
    rules,
    deckOf("Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jd", "Jc Qd Kh As 2c 3d 4h 5s 6c 7d", "", "9s"),
    ONE,
  );
  assert.deepEqual(
    [s.phase, s.turn, s.discardPile.length, s.firstUpcard],
    [Phase.DISCARD, TWO, 0, null],
  );
  assert.deepEqual(
    acts(s),
    handOf(s, TWO).map((c) => `discard ${c}`),
  );
  const big = Rules.preset("standard", { big_gin_bonus: 31 });
  const deck = deckOf(
    "2c 3c 4c 5c 6d 7d 8d Th Td Ts",
    "Kh Qh Js 9h 9s 8c 2h 3h 4h As",
    "Tc",
  );
  const taken = play(newRound(big, deck, ONE), "take");
  assert.ok(acts(taken).includes("big gin"));
  assert.deepEqual(
    [play(taken, "big gin").result.kind, play(taken, "big gin").result.points],
    ["big_gin", 88],
  );
  assert.ok(!acts(play(newRound(STANDARD, deck, ONE), "take")).includes("big gin"));
});

const LONG_DEALER = "Kc Kd Kh Qc Qd Qh Js Jd 5c 5h";
const LONG_STOCK =
  "Ac Ad Ah As 2d 2h 3d 3h 3s 4d 4h 4s 6c 6h 6s 7c 7h 7s 8c 8d 8h 9c 9d 9s Tc Td Ts";

function longRound(rules, stock) {
  let s = play(
    newRound(rules, deckOf(KNOCKY, LONG_DEALER, "8s", stock), ONE),
    "pass",
    "pass",
  );
  for (let i = 0; i < 29; i++) s = play(s, "draw stock", `discard ${s.stock[0]}`);
  return s;
}

test("two stock cards left: void, or (alternative rule) the last discard only to knock", () => {
  const void_ = longRound(STANDARD, `${LONG_STOCK} Ks Jc`);
  assert.deepEqual(
    [void_.phase, void_.result.kind, void_.stock.length],
    [Phase.OVER, "void", 2],
  );
  const rules = Rules.preset("standard", { stock_rule: "last_discard" });
  const s = longRound(rules, `${LONG_STOCK} Ks Jc`);
  assert.deepEqual(
    [s.phase, s.turn, acts(s)],
    [Phase.LAST_DISCARD, ONE, ["draw discard", "pass"]],
  );
  const taken = play(s, "draw discard");
  assert.deepEqual(acts(taken), ["knock 5c", "knock 5h"]);
  const r = play(taken, "knock 5h").result;
  assert.deepEqual([r.kind, r.knocker, r.winner, r.points], ["undercut", ONE, TWO, 30]);
  assert.equal(play(s, "pass").result.kind, "void");
  const none = longRound(rules, `${LONG_STOCK} Jc Ks`);
  assert.deepEqual(acts(none), ["pass"]);
});

test("isLegal agrees with legalActions for every action in a scenario", () => {
  const all = ["take", "pass", "draw stock", "draw discard", "big gin"];
  for (const kind of ["discard", "knock", "gin"])
    for (const c of PLAIN) all.push(`${kind} ${c}`);
  let s = newRound(STANDARD, deckOf(KNOCKY, DEALER, "8s", "2s Qh"), ONE);
  for (const step of [
    "pass",
    "pass",
    "draw stock",
    "discard 2s",
    "draw discard",
    "discard Kc",
    "draw stock",
  ]) {
    const legal = new Set(legalActions(s));
    for (const text of all)
      assert.equal(isLegal(s, parseAction(text)), legal.has(parseAction(text)), text);
    s = play(s, step);
  }
});
