// web/js/bots/worlds.js: worlds that agree with the seat's view and differ in what it
// hides, played out to the round's end (bots/worlds.py; its Python tests are
// tests/review/test_worlds.py).
import { test } from "node:test";
import assert from "node:assert/strict";

import { deal, matchTurn, newMatch } from "../../src/ginrummy/web/js/engine/match.js";
import { Rules } from "../../src/ginrummy/web/js/engine/rules.js";
import { viewForSeat } from "../../src/ginrummy/web/js/engine/views.js";
import { ActionKind } from "../../src/ginrummy/web/js/engine/actions.js";
import { andNot52, hasBit, or52 } from "../../src/ginrummy/web/js/engine/masks.js";
import { maskOf } from "../../src/ginrummy/web/js/bots/base.js";
import { discardScores } from "../../src/ginrummy/web/js/bots/evaluation.js";
import {
  EXPERT,
  PLAN,
  expertOdds,
  sampleHands,
  weightedDraw,
} from "../../src/ginrummy/web/js/bots/expert.js";
import { ALL_CARDS, read } from "../../src/ginrummy/web/js/bots/knowledge.js";
import { Master, masterPlan } from "../../src/ginrummy/web/js/bots/master.js";
import { PortableRandom } from "../../src/ginrummy/web/js/bots/random.js";
import {
  BELIEF,
  WorldError,
  belief,
  playOut,
  sampleWorlds,
} from "../../src/ginrummy/web/js/bots/worlds.js";
import { shuffled, views } from "./bots-helpers.mjs";

const QUICK = new Master(masterPlan({ worlds: 3 }));

/** The seat sees in `world` what it sees in `view`: its hand, the table, the moves.
 * @param {MatchState} world @param {SeatView} view */
function agrees(world, view) {
  const seen = viewForSeat(world, view.seat);
  assert.deepEqual(seen.hand, view.hand);
  assert.deepEqual(seen.legalActions, view.legalActions);
  assert.deepEqual(seen.table.discardPile, view.table.discardPile);
  assert.equal(seen.table.stockSize, view.table.stockSize);
  assert.deepEqual(seen.table.handSizes, view.table.handSizes);
  assert.deepEqual(seen.moves, view.moves);
}

test("the worlds agree with the view and differ in what it hides", () => {
  let checked = 0;
  for (const [i, view] of views(4, "strong", 30).entries()) {
    const worlds = sampleWorlds(view, 5, new PortableRandom(i));
    assert.equal(worlds.length, 5);
    const hidden = new Set();
    for (const world of worlds) {
      agrees(world, view);
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

/** The opponent's hand in each world of `view`. */
const opponents = (view, worlds) =>
  worlds.map((w) => w.round.hands.get(view.seat === 0 ? 1 : 0));

/** The hands sampleHands draws first from a generator seeded `seed` (worlds.py's draw). */
function drawnHands(view, n, improveCap, seed) {
  const know = read(view);
  const improve = Math.min(
    improveCap,
    Math.floor(know.oppStockDraws / PLAN.improveEvery),
  );
  return sampleHands(know, expertOdds(know), n, improve, new PortableRandom(seed));
}

/** The opponent's last discard when it was its last move, else null. */
function lastDiscard(view) {
  const mine = view.moves.filter((m) => m.seat !== view.seat);
  const last = mine[mine.length - 1];
  return last && last.kind === ActionKind.DISCARD ? last.card : null;
}

/** Whether the opponent's last discard was a best discard (by the expert's scores) of
 * `hand` with it: a hand that explains it fully. */
function explains(view, hand) {
  const know = read(view);
  const thrown = lastDiscard(view);
  const seen = or52(know.pile, maskOf(view.table.known.get(view.seat)));
  const late = EXPERT.latePotential;
  const weight = late + ((EXPERT.potential - late) * Math.min(know.stockSize, 31)) / 31;
  const held = or52(hand, thrown.bit);
  const scored = discardScores(held, andNot52(andNot52(ALL_CARDS, held), seen), weight);
  const best = Math.min(...[...scored.values()].map(([, s]) => s));
  return scored.get(thrown.index)[1] === best;
}

test("a belief has Python's defaults and refuses what Python refuses", () => {
  assert.deepEqual(
    { ...BELIEF },
    { improveCap: PLAN.improveCap, particles: 1, fit: 3.0, knocked: 1.0 },
  );
  assert.ok(Object.isFrozen(BELIEF) && Object.isFrozen(belief({ particles: 2 })));
  assert.deepEqual(belief({ particles: 4 }), {
    improveCap: 6,
    particles: 4,
    fit: 3.0,
    knocked: 1.0,
  });
  const refused = [{ improveCap: -1 }, { particles: 0 }, { fit: 0 }, { fit: -1 }];
  for (const bad of [...refused, { knocked: 0 }, { knocked: 1.5 }])
    assert.throws(() => belief(bad), RangeError, JSON.stringify(bad));
  const [view] = views(5, "strong", 1);
  const rng = new PortableRandom(1);
  // More than 52 hands a decision with particles; any count without.
  assert.throws(() => sampleWorlds(view, 14, rng, belief({ particles: 4 })), RangeError);
  assert.throws(
    () => sampleWorlds(view, 3, rng, { improveCap: 6, particles: 0, fit: 3, knocked: 1 }),
    RangeError,
  );
  assert.equal(sampleWorlds(view, 13, rng, belief({ particles: 4 })).length, 13);
  assert.equal(sampleWorlds(view, 53, rng).length, 53);
  // No world is checked before the belief, as in Python.
  const m = deal(newMatch(new Rules(), 0), shuffled(new PortableRandom(8)));
  const waiting = viewForSeat(m, matchTurn(m) === 0 ? 1 : 0);
  assert.throws(
    () => sampleWorlds(waiting, 14, rng, belief({ particles: 4 })),
    WorldError,
  );
});

test("weightedDraw draws `take` distinct indices of the pool as a mask", () => {
  const rng = new PortableRandom(3);
  for (let n = 0; n < 50; n++) {
    const mask = weightedDraw([0, 7, 30, 51], [1, 2, 0.5, 3], 3, rng);
    const drawn = [0, 7, 30, 51].filter((i) => hasBit(mask, i));
    assert.equal(drawn.length, 3);
    assert.equal(
      mask,
      drawn.reduce((a, i) => a + 2 ** i, 0),
    );
  }
  assert.equal(weightedDraw([4, 9], [1e-6, 5], 1, new PortableRandom(0)), 2 ** 9);
});

test("one particle draws the worlds as before, whatever the fit", () => {
  for (const [i, view] of views(6, "expert", 25).entries()) {
    const plain = sampleWorlds(view, 4, new PortableRandom(i));
    const same = sampleWorlds(view, 4, new PortableRandom(i), belief({ fit: 0.01 }));
    assert.deepEqual(opponents(view, same), opponents(view, plain));
    assert.deepEqual(
      same.map((w) => w.round.stock),
      plain.map((w) => w.round.stock),
    );
    assert.deepEqual(opponents(view, plain), drawnHands(view, 4, PLAN.improveCap, i));
    const capped = sampleWorlds(
      view,
      4,
      new PortableRandom(i),
      belief({ improveCap: 1 }),
    );
    assert.deepEqual(opponents(view, capped), drawnHands(view, 4, 1, i));
  }
});

test("with particles, `count` worlds that agree with the view, drawn from the particles", () => {
  const drawn = belief({ improveCap: 3, particles: 4, fit: 3.0 });
  let checked = 0;
  for (const [i, view] of views(7, "expert", 30).entries()) {
    const worlds = sampleWorlds(view, 5, new PortableRandom(i), drawn);
    assert.equal(worlds.length, 5);
    for (const world of worlds) {
      agrees(world, view);
      assert.deepEqual(viewForSeat(world, view.seat).table.known, view.table.known);
    }
    // The kept hands are 5 of the 20 particles, in their order.
    const particles = drawnHands(view, 20, 3, i);
    let at = 0;
    for (const hand of opponents(view, worlds)) {
      while (at < particles.length && particles[at] !== hand) at++;
      assert.ok(at < particles.length, "a kept hand is not one of the particles");
      at++;
    }
    const again = sampleWorlds(view, 5, new PortableRandom(i), drawn);
    assert.deepEqual(opponents(view, again), opponents(view, worlds));
    checked++;
  }
  assert.ok(checked >= 25);
});

test("with particles, the hands kept explain the opponent's last discard more often", () => {
  const drawn = belief({ particles: 8, fit: 0.5 });
  let kept = 0,
    keptFit = 0,
    pool = 0,
    poolFit = 0;
  for (const seed of [11, 12, 13]) {
    for (const [i, view] of views(seed, "expert", 40).entries()) {
      if (lastDiscard(view) === null) continue;
      for (const hand of opponents(
        view,
        sampleWorlds(view, 4, new PortableRandom(i), drawn),
      )) {
        kept++;
        if (explains(view, hand)) keptFit++;
      }
      for (const hand of drawnHands(view, 32, PLAN.improveCap, i)) {
        pool++;
        if (explains(view, hand)) poolFit++;
      }
    }
  }
  assert.ok(kept >= 100, `only ${kept} hands kept`);
  const keptShare = keptFit / kept,
    poolShare = poolFit / pool;
  assert.ok(
    keptShare > poolShare + 0.15,
    `kept ${keptShare.toFixed(2)} against ${poolShare.toFixed(2)} in the particles`,
  );
});
