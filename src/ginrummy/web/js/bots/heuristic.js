// The graded heuristic players: one decision procedure tuned by a Style; the port of
// bots/heuristic.py (see there for the why of each weight). Python keeps the last
// scores and its reading of the moves as caches; they change no decision and are left
// out here.

import { ActionKind } from "../engine/actions.js";
import { and52, or52 } from "../engine/masks.js";
import { Phase } from "../engine/round.js";
import { cardOfAction, discardable, find, minBy } from "./base.js";
import {
  PARTNERS,
  discardScores,
  handScore,
  holdingOdds,
  looseCards,
} from "./evaluation.js";
import { read, readPlain } from "./knowledge.js";

/** @typedef {import("./base.js").SeatView} SeatView */
/** @typedef {import("./base.js").Action} Action */
/** @typedef {import("./base.js").Card} Card */
/** @typedef {import("./knowledge.js").Knowledge} Knowledge */
/** @typedef {import("./random.js").PortableRandom} PortableRandom */
/** @typedef {Map<number, [number, number]>} Scores card index -> [deadwood, score] */

/**
 * @typedef {Readonly<{memory: boolean, potential: number, danger: number, infer: boolean,
 *   stockGain: number, knock: readonly (readonly [number, number])[], slip: number,
 *   latePotential: number | null}>} Style
 */

/** @param {Omit<Style, "slip" | "latePotential"> & Partial<Style>} s @returns {Style} */
export const style = (s) => Object.freeze({ slip: 0.0, latePotential: null, ...s });

// Each level's character and its measurements: bots/heuristic.py and
// docs/computer-players.md, "How each level plays". No level has a negative stockGain
// (see bots/heuristic.py).
/** @type {readonly (readonly [number, number])[]} */
const KNOCK_AT_ONCE = [[0, 10]];
export const BEGINNER = style({
  memory: false,
  potential: 0.0,
  danger: 0.0,
  infer: false,
  stockGain: 0.0,
  knock: KNOCK_AT_ONCE,
  slip: 0.5,
});
export const CASUAL = style({
  memory: false,
  potential: 3.0,
  danger: 0.0,
  infer: false,
  stockGain: 0.0,
  knock: KNOCK_AT_ONCE,
});
export const STRONG = style({
  memory: true,
  potential: 1.0,
  danger: 1.5,
  infer: false,
  stockGain: 1.5,
  knock: KNOCK_AT_ONCE,
  latePotential: 0.3,
});

export class Player {
  /** @param {Style} playStyle */
  constructor(playStyle) {
    this.style = playStyle;
  }

  /** @param {SeatView} view @param {PortableRandom} rng @returns {Action} */
  choose(view, rng) {
    const phase = view.table.roundPhase;
    const legal = view.legalActions;
    if (phase === Phase.LAST_DISCARD)
      return find(view, ActionKind.DRAW_DISCARD) ?? legal[legal.length - 1];
    const know = this.style.memory ? read(view) : readPlain(view);
    if (phase === Phase.FIRST_UPCARD) return legal[this.wantsTop(view, know) ? 0 : 1];
    if (phase === Phase.DRAW) {
      const take = find(view, ActionKind.DRAW_DISCARD);
      if (take !== null && !threwTop(view) && this.wantsTop(view, know)) return take;
      return find(view, ActionKind.DRAW_STOCK) ?? legal[0];
    }
    return this.discard(view, know, rng);
  }

  /** Points per live out of the loose cards. @param {Knowledge} know */
  weight(know) {
    const late = this.style.latePotential;
    if (late === null) return this.style.potential;
    const full = this.style.potential;
    return late + ((full - late) * Math.min(know.stockSize, 31)) / 31;
  }

  /** @param {Knowledge} know @returns {number[] | null} */
  odds(know) {
    return this.style.danger ? holdingOdds(know, this.style.infer) : null;
  }

  /** @param {SeatView} view @param {Knowledge} know */
  wantsTop(view, know) {
    const pile = view.table.discardPile;
    if (!pile.length) return false;
    const top = pile[pile.length - 1];
    const odds = this.odds(know);
    const scored = this.scores(or52(know.hand, top.bit), know, odds);
    scored.delete(top.index); // the card just taken may not be discarded
    let knock = Infinity,
      best = Infinity;
    for (const [dw, score] of scored.values()) {
      if (dw < knock) knock = dw;
      if (score < best) best = score;
    }
    if (knock <= view.table.knockLimit && this.knockWanted(view, know, knock))
      return true;
    return best < this.stockValue(know) - 1e-9;
  }

  /** The expected score of the hand after a stock draw (lower is better). @param {Knowledge} know */
  stockValue(know) {
    return handScore(know.hand, know.unseen, this.weight(know)) - this.style.stockGain;
  }

  /** @param {number} hand @param {Knowledge} know @param {number[] | null} odds @returns {Scores} */
  scores(hand, know, odds) {
    const scored = discardScores(hand, know.unseen, this.weight(know));
    if (odds !== null) {
      const weight = this.style.danger;
      for (const [i, [dw, score]] of scored) {
        let total = 0.0;
        for (const [a, b] of PARTNERS[i]) total += odds[a] * odds[b];
        scored.set(i, [dw, score + weight * total]);
      }
    }
    return scored;
  }

  /** @param {SeatView} view @param {Knowledge} know @param {PortableRandom} rng @returns {Action} */
  discard(view, know, rng) {
    const legal = view.legalActions;
    /** @type {Action[]} */ const gins = [];
    /** @type {Action[]} */ const knocks = [];
    for (const action of legal) {
      if (action.kind === ActionKind.KNOCK) knocks.push(action);
      else if (action.kind === ActionKind.GIN) gins.push(action);
      else if (action.kind === ActionKind.BIG_GIN) return action;
    }
    const odds = this.odds(know);
    const hand = know.hand;
    const scored = this.scores(hand, know, odds);
    const at = (/** @type {Action} */ a) =>
      /** @type {[number, number]} */ (scored.get(cardOfAction(a).index));
    if (gins.length) return minBy(gins, (a) => [at(a)[1]]);
    if (knocks.length) {
      const knock = this.chooseKnock(view, know, knocks, rng, scored);
      if (knock !== null) return knock;
    }
    const cards = discardable(view);
    if (this.style.slip && rng.random() < this.style.slip) {
      const loose = looseCards(hand)[1];
      const slips = cards.filter((c) => and52(loose, c.bit) !== 0);
      if (slips.length)
        return find(view, ActionKind.DISCARD, rng.choice(slips)) ?? legal[0];
    }
    return find(view, ActionKind.DISCARD, least(cards, scored)) ?? legal[0];
  }

  /** @param {SeatView} view @param {Knowledge} _know @param {number} deadwood */
  knockWanted(view, _know, deadwood) {
    const stock = view.table.stockSize;
    for (const [atLeast, most] of this.style.knock) {
      if (stock >= atLeast) return deadwood <= most;
    }
    return true;
  }

  /** The knock to make now, or null to play on.
   * @param {SeatView} view @param {Knowledge} know @param {Action[]} knocks
   * @param {PortableRandom} _rng @param {Scores} scored @returns {Action | null} */
  chooseKnock(view, know, knocks, _rng, scored) {
    const [best, deadwood] = lowestKnock(knocks, scored);
    return this.knockWanted(view, know, deadwood) ? best : null;
  }
}

/** True when the pile's top card is one this seat discarded this round (Python's
 * threw_top: taking it back can cycle for ever near the wall). @param {SeatView} view */
export function threwTop(view) {
  const pile = view.table.discardPile;
  if (!pile.length) return false;
  const top = pile[pile.length - 1];
  return view.moves.some(
    (m) => m.card === top && m.seat === view.seat && m.kind === ActionKind.DISCARD,
  );
}

/** The best discard: the least (score, -value, index). @param {Card[]} cards @param {Scores} scored */
function least(cards, scored) {
  return minBy(cards, (c) => [
    /** @type {[number, number]} */ (scored.get(c.index))[1],
    -c.value,
    c.index,
  ]);
}

/** The knock that leaves the least deadwood (the lower card on a tie), and that deadwood.
 * @param {Action[]} knocks @param {Scores} scored @returns {[Action, number]} */
export function lowestKnock(knocks, scored) {
  const dw = (/** @type {Action} */ a) =>
    /** @type {[number, number]} */ (scored.get(cardOfAction(a).index))[0];
  const best = minBy(knocks, (a) => [dw(a), cardOfAction(a).index]);
  return [best, dw(best)];
}
