// The two measuring sticks, `random` and `baseline`; the port of bots/simple.py.

import { ActionKind } from "../engine/actions.js";
import { andNot52, xor52, or52, and52 } from "../engine/masks.js";
import { arrangementOfMask, deadwoodOfMask } from "../engine/melds.js";
import { Phase } from "../engine/round.js";
import { cardOfAction, discardable, find, maskOf, minBy, ofKind } from "./base.js";

/** @typedef {import("./base.js").SeatView} SeatView */
/** @typedef {import("./base.js").Action} Action */
/** @typedef {import("./base.js").Card} Card */
/** @typedef {import("./random.js").PortableRandom} PortableRandom */

/** Any legal action, uniformly. @param {SeatView} view @param {PortableRandom} rng @returns {Action} */
export function chooseRandom(view, rng) {
  return rng.choice(view.legalActions);
}

/** True when `card` is in a meld of the best arrangement of the hand with it.
 * @param {number} hand @param {Card} card */
export function completesMeld(hand, card) {
  return arrangementOfMask(or52(hand, card.bit)).meldMasks.some(
    (m) => and52(m, card.bit) !== 0,
  );
}

/** Take the upcard or discard only to complete or extend a meld, else draw from the
 * stock; discard the unmatched card of highest value (never the card just taken);
 * knock as soon as it is legal.
 * @param {SeatView} view @param {PortableRandom} _rng @returns {Action} */
export function chooseBaseline(view, _rng) {
  const phase = view.table.roundPhase;
  const hand = maskOf(view.hand);
  const top = view.table.discardPile.at(-1) ?? null;
  const legal = view.legalActions;
  if (phase === Phase.FIRST_UPCARD) {
    const take = top !== null && completesMeld(hand, top);
    return legal[take ? 0 : 1]; // (take, pass)
  }
  if (phase === Phase.LAST_DISCARD)
    return find(view, ActionKind.DRAW_DISCARD) ?? legal[legal.length - 1];
  if (phase === Phase.DRAW) {
    const takeIt = find(view, ActionKind.DRAW_DISCARD);
    if (takeIt !== null && top !== null && completesMeld(hand, top)) return takeIt;
    return find(view, ActionKind.DRAW_STOCK) ?? legal[0];
  }
  return baselineDiscard(view, hand);
}

/** @param {SeatView} view @param {number} hand @returns {Action} */
function baselineDiscard(view, hand) {
  const big = find(view, ActionKind.BIG_GIN);
  if (big !== null) return big;
  let ends = ofKind(view, ActionKind.GIN);
  if (ends.length === 0) ends = ofKind(view, ActionKind.KNOCK);
  if (ends.length) {
    return minBy(ends, (a) => {
      const c = cardOfAction(a);
      return [deadwoodOfMask(xor52(hand, c.bit)), -c.value, c.index];
    });
  }
  const candidates = discardable(view);
  const unmatched = arrangementOfMask(hand).unmatchedMask;
  const loose = candidates.filter((c) => and52(unmatched, c.bit) !== 0);
  const card = loose.length
    ? minBy(loose, (c) => [-c.value, -c.index]) // max by (value, index)
    : minBy(candidates, (c) => [
        deadwoodOfMask(andNot52(hand, c.bit)),
        -c.value,
        c.index,
      ]);
  return find(view, ActionKind.DISCARD, card) ?? view.legalActions[0];
}
