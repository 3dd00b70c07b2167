// `expert`: the heuristic at its best settings, with inference of the opponent's hand,
// a sampled undercut check before knocking and its own play near the wall; the port
// of bots/expert.py and bots/expert_model.py (see there for the why).

import { and52, andNot52, hasBit, xor52 } from "../engine/masks.js";
import { arrangementOfMask, deadwoodOfMask } from "../engine/melds.js";
import { defenderReply } from "../engine/showdown.js";
import { cardOfAction } from "./base.js";
import { danger, indices, neighbours } from "./evaluation.js";
import { Player, lowestKnock, style } from "./heuristic.js";
import { PortableRandom } from "./random.js";

/** @typedef {import("./base.js").SeatView} SeatView */
/** @typedef {import("./base.js").Action} Action */
/** @typedef {import("./knowledge.js").Knowledge} Knowledge */
/** @typedef {import("./heuristic.js").Scores} Scores */

export const EXPERT = style({
  memory: true,
  potential: 1.0,
  danger: 6.0,
  infer: false,
  stockGain: 1.5,
  knock: [
    [22, 10],
    [16, 6],
    [10, 4],
    [4, 3],
    [0, 10],
  ],
  latePotential: 0.3,
});

/** Weights of an unseen card relative to a card nothing is known about. */
export const INFERENCE = Object.freeze({ pick: 1.8, discard: 0.5, passed: 0.7 });

/** The expert's additions to the heuristic Style (Python's Plan; the inference is
 * always INFERENCE here). `samples: 0` is the rollout player of bots/master.py and
 * bots/worlds.py: no sampled undercut check, and no draw from the rng for it.
 * @typedef {Readonly<{samples: number, improveEvery: number, improveCap: number,
 *   veto: number, wall: number, wallDanger: number}>} Plan */

/** @type {Plan} */
export const PLAN = Object.freeze({
  samples: 32,
  improveEvery: 1,
  improveCap: 6,
  veto: 0.15,
  wall: 5,
  wallDanger: 6.0,
});

/** For each card index, the chance that the opponent holds it. @param {Knowledge} know @returns {number[]} */
export function expertOdds(know) {
  const odds = new Array(52).fill(0.0);
  for (const i of indices(know.oppKnown)) odds[i] = 1.0;
  const unseen = indices(know.unseen);
  if (!unseen.length || !know.oppHidden) return odds;
  const picks = know.oppKnown,
    thrown = know.oppDiscarded;
  const passed = andNot52(know.oppPassed, thrown);
  const weights = unseen.map((i) => {
    const near = neighbours(i);
    let w = 1.0;
    if (and52(near, picks)) w *= INFERENCE.pick;
    if (and52(near, thrown)) w *= INFERENCE.discard;
    if (and52(near, passed)) w *= INFERENCE.passed;
    return w;
  });
  let total = 0.0;
  for (const w of weights) total += w;
  const scale = know.oppHidden / total;
  unseen.forEach((i, k) => {
    odds[i] = Math.min(0.95, weights[k] * scale);
  });
  return odds;
}

/** `count` opponent hands consistent with the view, each improved by `improve` cards.
 * @param {Knowledge} know @param {readonly number[]} odds @param {number} count @param {number} improve
 * @param {PortableRandom} rng @returns {number[]} */
export function sampleHands(know, odds, count, improve, rng) {
  const pool = indices(know.unseen);
  const need = Math.min(know.oppHidden, pool.length);
  const take = Math.min(need + improve, pool.length);
  const weights = pool.map((i) => Math.max(odds[i], 1e-6));
  const hands = [];
  for (let n = 0; n < count; n++)
    hands.push(
      keepBest(know.oppKnown, weightedDraw(pool, weights, take, rng), take - need),
    );
  return hands;
}

/** `take` cards of `pool` without replacement, one by one, by weight (as Python): the
 * mask of the indices drawn (every index of `pool` below 52).
 * @param {number[]} pool @param {number[]} weights @param {number} take @param {PortableRandom} rng */
export function weightedDraw(pool, weights, take, rng) {
  const leftW = weights.slice(),
    leftI = pool.slice();
  let total = 0.0;
  for (const w of leftW) total += w;
  let hidden = 0;
  for (let t = 0; t < take; t++) {
    const x = rng.random() * total;
    let pick = leftW.length - 1;
    let acc = 0.0;
    for (let j = 0; j < leftW.length; j++) {
      acc += leftW[j];
      if (x < acc) {
        pick = j;
        break;
      }
    }
    total -= leftW[pick];
    hidden += 2 ** leftI[pick];
    leftW.splice(pick, 1);
    leftI.splice(pick, 1);
  }
  return hidden;
}

/** Drop `drops` hidden cards one by one, each the one leaving least deadwood.
 * @param {number} known @param {number} hidden @param {number} drops */
function keepBest(known, hidden, drops) {
  let hand = known + hidden; // disjoint
  for (let d = 0; d < drops; d++) {
    let bestDw = Infinity,
      bestI = -1;
    for (const i of indices(hand)) {
      if (!hasBit(hidden, i)) continue;
      const dw = deadwoodOfMask(xor52(hand, 2 ** i));
      if (dw < bestDw) {
        bestDw = dw;
        bestI = i;
      }
    }
    hand -= 2 ** bestI;
    hidden -= 2 ** bestI;
  }
  return hand;
}

/** Knocking with `deadwood` and `melds` against each hand: [undercut chance, points].
 * @param {number} deadwood @param {readonly number[]} melds @param {number[]} hands @param {number} bonus */
export function knockOutlook(deadwood, melds, hands, bonus) {
  let undercuts = 0,
    points = 0;
  for (const hand of hands) {
    const margin = defenderReply(hand, melds)[2] - deadwood;
    if (margin > 0) points += margin;
    else {
      undercuts += 1;
      points -= bonus - margin;
    }
  }
  const n = Math.max(hands.length, 1);
  return { undercut: undercuts / n, points: points / n };
}

export class Expert extends Player {
  /** @param {Plan} [plan] @param {import("./heuristic.js").Style} [playStyle] */
  constructor(plan = PLAN, playStyle = EXPERT) {
    super(playStyle);
    this.plan = plan;
  }

  /** @param {Knowledge} know @returns {number[]} */
  odds(know) {
    return expertOdds(know);
  }

  /** @param {number} hand @param {Knowledge} know @param {number[] | null} odds @returns {Scores} */
  scores(hand, know, odds) {
    const scored = super.scores(hand, know, odds);
    const extra = this.plan.wallDanger;
    if (odds === null || !extra || know.stockSize > this.plan.wall) return scored;
    for (const [i, [dw, s]] of scored) scored.set(i, [dw, s + extra * danger(i, odds)]);
    return scored;
  }

  /** @param {SeatView} view @param {Knowledge} know @param {Action[]} knocks
   * @param {PortableRandom} rng @param {Scores} scored @returns {Action | null} */
  chooseKnock(view, know, knocks, rng, scored) {
    const [best, deadwood] = lowestKnock(knocks, scored);
    const plan = this.plan;
    if (!this.knockWanted(view, know, deadwood)) return null;
    if (!plan.samples) return best;
    const odds = this.odds(know);
    const local = new PortableRandom(rng.getrandbits64()); // one draw of the game's rng per decision
    const improve = Math.min(
      plan.improveCap,
      Math.floor(know.oppStockDraws / plan.improveEvery),
    );
    const hands = sampleHands(know, odds, plan.samples, improve, local);
    const melds = arrangementOfMask(
      andNot52(know.hand, cardOfAction(best).bit),
    ).meldMasks;
    const outlook = knockOutlook(deadwood, melds, hands, view.table.rules.undercutBonus);
    return outlook.undercut < plan.veto ? best : null;
  }
}
