// web/js/bots/worlds.js: worlds that agree with the seat's view and differ in what it
// hides, played out to the round's end (bots/worlds.py; its Python tests are
// tests/review/test_worlds.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import { DECK } from "../../src/ginrummy/web/js/engine/cards.js";
import {
  MatchPhase,
  apply,
  deal,
  matchTurn,
  newMatch,
} from "../../src/ginrummy/web/js/engine/match.js";
import { Rules } from "../../src/ginrummy/web/js/engine/rules.js";
import { viewForSeat } from "../../src/ginrummy/web/js/engine/views.js";
import { makeBot } from "../../src/ginrummy/web/js/bots/index.js";
import { Master, masterPlan } from "../../src/ginrummy/web/js/bots/master.js";
import { PortableRandom } from "../../src/ginrummy/web/js/bots/random.js";
import {
  WorldError,
  playOut,
  sampleWorlds,
} from "../../src/ginrummy/web/js/bots/worlds.js";

/** @param {PortableRandom} rng */
function shuffled(rng) {
  const deck = DECK.slice();
  rng.shuffle(deck);
  return deck;
}

/** Views of decisions with a choice, from a seeded match of `level` against itself. */
function views(seed, level, count) {
  const rng = new PortableRandom(seed);
  const bot = makeBot(level);
  let m = newMatch(new Rules(), 0);
  const out = [];
  while (m.phase !== MatchPhase.OVER && out.length < count) {
    if (m.phase === MatchPhase.DEAL) {
      m = deal(m, shuffled(rng));
      continue;
    }
    const view = viewForSeat(m, matchTurn(m));
    if (view.legalActions.length > 1) out.push(view);
    m = apply(m, bot(view, rng));
  }
  return out;
}

const QUICK = new Master(masterPlan({ worlds: 3 }));

test("the worlds agree with the view and differ in what it hides", () => {
  let checked = 0;
  for (const [i, view] of views(4, "strong", 30).entries()) {
    const worlds = sampleWorlds(view, 5, new PortableRandom(i));
    assert.equal(worlds.length, 5);
    const hidden = new Set();
    for (const world of worlds) {
      const seen = viewForSeat(world, view.seat);
      assert.deepEqual(seen.hand, view.hand);
      assert.deepEqual(seen.legalActions, view.legalActions);
      assert.deepEqual(seen.table.discardPile, view.table.discardPile);
      assert.equal(seen.table.stockSize, view.table.stockSize);
      assert.deepEqual(seen.table.handSizes, view.table.handSizes);
      assert.deepEqual(seen.moves, view.moves);
      const other = world.round.hands.get(view.seat === 0 ? 1 : 0);
      hidden.add(`${other}:${world.round.stock.map(String).join()}`);
      const points = playOut(world, view.seat, new PortableRandom(i), (v, r) =>
        QUICK.rollout(v, r),
      );
      assert.ok(Number.isInteger(points));
    }
    assert.ok(hidden.size > 1);
    checked++;
  }
  assert.ok(checked >= 20);
});

test("a view without a decision has no world", () => {
  const rng = new PortableRandom(8);
  const m = deal(newMatch(new Rules(), 0), shuffled(rng));
  const waiting = viewForSeat(m, matchTurn(m) === 0 ? 1 : 0);
  assert.throws(() => sampleWorlds(waiting, 3, rng), WorldError);
});
