// The expert with a discard learned from true outcomes, the base of `master`; the port
// of bots/learned.py (see there for how the weights were made and what they read).
// The value is a plain left-to-right sum, as Python adds it: both pick the same card.

import { ActionKind } from "../engine/actions.js";
import { discardable, find } from "./base.js";
import { danger, discardScores } from "./evaluation.js";
import { EXPERT, Expert, PLAN, expertOdds } from "./expert.js";

/** @typedef {import("./base.js").SeatView} SeatView */
/** @typedef {import("./base.js").Action} Action */
/** @typedef {import("./base.js").Card} Card */
/** @typedef {import("./knowledge.js").Knowledge} Knowledge */
/** @typedef {import("./random.js").PortableRandom} PortableRandom */

export const CANDIDATES = 4; // the expert's choice and up to three more discards
export const SPREAD = 8.0; // ... each scored by the expert within this much of its best

/** The features' names, in Python's FEATURES order. */
export const FEATURES = Object.freeze([
  "deadwood",
  "outs",
  "danger",
  "value",
  "deadwood*late",
  "outs*late",
  "danger*late",
  "value*late",
  "danger*wall",
  "knockable",
  "knockable*late",
  "deadwood<=4",
]);

/** bench/learned_q.json, as bots/learned.py's WEIGHTS (tests/js/bots-learned.test.mjs
 * checks the three agree). Higher is better. */
export const WEIGHTS = Object.freeze([
  -0.6971163692474376, 0.8369137903347006, -3.021504458161147, -0.6294989835578892,
  0.3409373840286987, -0.6137702729205412, 3.259941738430163, 0.9565835912485321,
  -0.8340466406556927, 2.490323943932618, -4.435130013114341, 3.0903351519343056,
]);

/** The discards worth judging: the best by the expert's own score, the best first (the
 * expert's choice), at most CANDIDATES within SPREAD of it.
 * @param {Expert} expert @param {SeatView} view @param {Knowledge} know
 * @param {number[] | null} odds @returns {Card[]} */
export function discardCandidates(expert, view, know, odds) {
  const scored = expert.scores(know.hand, know, odds);
  const score = (/** @type {Card} */ c) =>
    /** @type {[number, number]} */ (scored.get(c.index))[1];
  const plain = new Set(
    view.legalActions.filter((a) => a.kind === ActionKind.DISCARD).map((a) => a.card),
  );
  const ranked = discardable(view)
    .filter((c) => plain.has(c))
    .sort((a, b) => score(a) - score(b) || b.value - a.value || a.index - b.index);
  if (!ranked.length) return [];
  const floor = score(ranked[0]);
  return ranked.slice(0, CANDIDATES).filter((c) => score(c) <= floor + SPREAD);
}

/** Each discard's features (FEATURES), in the order of `cards`.
 * @param {Knowledge} know @param {readonly number[]} odds @param {readonly Card[]} cards
 * @returns {number[][]} */
export function discardFeatures(know, odds, cards) {
  const plain = discardScores(know.hand, know.unseen, 1.0);
  const late = 1.0 - Math.min(know.stockSize, 31) / 31;
  const wall = know.stockSize <= PLAN.wall ? 1.0 : 0.0;
  return cards.map((card) => {
    const [dw, score] = /** @type {[number, number]} */ (plain.get(card.index));
    const outs = dw - score;
    const d = danger(card.index, odds);
    const value = card.value;
    const knockable = dw <= 10 ? 1.0 : 0.0;
    return [
      dw,
      outs,
      d,
      value,
      dw * late,
      outs * late,
      d * late,
      value * late,
      d * wall,
      knockable,
      knockable * late,
      dw <= 4 ? 1.0 : 0.0,
    ];
  });
}

/** The weighted sum of a row, added left to right.
 * @param {readonly number[]} weights @param {readonly number[]} row */
export function learnedValue(weights, row) {
  if (weights.length !== row.length)
    throw new RangeError(`${weights.length} weights for ${row.length} features`);
  let total = 0.0;
  for (let k = 0; k < row.length; k++) total += weights[k] * row[k];
  return total;
}

/** The expert whose discard is, among the expert's close candidates, the one of the
 * best learned value (its first, the expert's choice, on a tie). */
export class Learned extends Expert {
  /** @param {readonly number[]} [weights] @param {import("./expert.js").Plan} [plan]
   * @param {import("./heuristic.js").Style} [playStyle] */
  constructor(weights = WEIGHTS, plan = PLAN, playStyle = EXPERT) {
    super(plan, playStyle);
    if (weights.length !== FEATURES.length)
      throw new RangeError(
        `a discard needs ${FEATURES.length} weights, not ${weights.length}`,
      );
    this.weights = Object.freeze([...weights]);
  }

  /** @param {SeatView} view @param {Knowledge} know @param {PortableRandom} rng @returns {Action} */
  discard(view, know, rng) {
    const choice = super.discard(view, know, rng);
    if (choice.kind !== ActionKind.DISCARD) return choice; // gin or a knock: the expert's
    const odds = expertOdds(know); // the expert's odds, read once
    const cards = discardCandidates(this, view, know, odds);
    if (cards.length < 2) return choice;
    const values = discardFeatures(know, odds, cards).map((row) =>
      learnedValue(this.weights, row),
    );
    let best = 0;
    for (let k = 1; k < values.length; k++) if (values[k] > values[best]) best = k;
    return best === 0 ? choice : (find(view, ActionKind.DISCARD, cards[best]) ?? choice);
  }
}
